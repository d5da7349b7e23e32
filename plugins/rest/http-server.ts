import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE } from './middleware/problem.js';
import { answerExpectationFailed } from './middleware/expect.js';

/** Requests Node's HTTP parser refuses never reach Koa: answer them as problem+json too. */
function rejectMalformed(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    type: `${PROBLEM_TYPE_BASE}validation-failed`,
    title: tooLarge ? 'Request headers are too large' : 'Malformed HTTP request',
    status,
    detail: tooLarge ? 'Request headers are too large' : 'The HTTP request could not be parsed',
    code: 'VALIDATION_FAILED',
  });
  // an answer to HEAD has no body (a client would read it as the start of the next answer)
  const head = (error as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${head ? '' : body}`,
  );
}

/** The Node HTTP server of a Koa app: listen on host:port, close gracefully within a deadline. */
export class HttpServer {
  #server: Server | undefined;
  url = '';
  port = 0;

  constructor(
    private readonly app: Koa,
    private readonly log: Logger,
  ) {}

  async listen(port: number, host: string): Promise<void> {
    if (this.#server) return;
    // Requests without Host reach Koa (and get a problem+json answer) instead of Node's bare 400.
    const srv = createServer({ requireHostHeader: false }, this.app.callback());
    this.#server = srv;
    srv.on('clientError', (error: NodeJS.ErrnoException, socket) => rejectMalformed(error, socket));
    srv.on('checkExpectation', answerExpectationFailed);
    srv.headersTimeout = 20_000;
    srv.requestTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, host, () => {
        srv.off('error', reject);
        resolve();
      });
    });
    this.port = (srv.address() as AddressInfo).port;
    const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    this.url = `http://${shown}:${this.port}`;
  }

  /** Stops accepting, lets in-flight requests finish, then closes what is left after `timeoutMs`. */
  async close(timeoutMs: number): Promise<void> {
    const srv = this.#server;
    if (!srv) return;
    const done = new Promise<void>((resolve) => srv.close(() => resolve()));
    // Connections that finish their last request while we wait become idle: close them too.
    const sweeper = setInterval(() => srv.closeIdleConnections(), 25);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      if ((await Promise.race([done, deadline])) === 'timeout') {
        this.log.warn(
          'REST server: requests still running after %d ms, closing connections',
          timeoutMs,
        );
        srv.closeAllConnections();
        await done;
      }
    } finally {
      clearTimeout(timer);
      clearInterval(sweeper);
    }
  }
}
