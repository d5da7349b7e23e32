/**
 * The REST server: Koa + @koa/router + @koa/bodyparser, the routes of SPEC-REST.md, SSE, webhooks,
 * metrics and the dashboard. `createRestServer` builds it; `listen()` and `close()` run it (the
 * plugin calls them from `sdk.start()` and `sdk.stop()`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import Koa, { type Context, type Next } from 'koa';
import { Router } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Logger } from 'pino';
import { WakitError, type PluginRouteRegistry, type Sdk } from '../../src/index.js';
import { pluginRoutesMiddleware } from './plugin-routes.js';
import { TokenAuth, type Principal } from './auth.js';
import type { RestContext } from './context.js';
import { dashboardRoutes } from './dashboard.js';
import { EventHub } from './event-hub.js';
import { eventRoutes } from './events.js';
import { RestMetrics } from './metrics.js';
import { buildOpenApi } from './openapi.js';
import { restOptionsSchema, type RestOptions, type RestOptionsInput } from './options.js';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE, sendProblem, toProblem } from './problem.js';
import { mountRoutes, type AnyRoute } from './route.js';
import { clientRoutes } from './routes/clients.js';
import { messageRoutes } from './routes/messages.js';
import { simulatorRoutes } from './routes/simulator.js';
import { systemRoutes } from './routes/system.js';
import { WebhookDispatcher } from './webhooks.js';
import { rateLimitMiddleware } from './rate-limit.js';
import { answerExpectationFailed } from './expect.js';
import { requireUtf8 } from './charset.js';
import { isLoopbackHost } from './loopback.js';

export interface RestServerOptions {
  sdk: Sdk;
  /** Raw or parsed plugin options (validated here). */
  options: RestOptionsInput | RestOptions;
  logger: Logger;
  /** Extra routes mounted like the built-in ones. */
  routes?: AnyRoute[];
  /** Routes of other plugins (`ctx.http`), served under `/api/v1/plugins/<plugin>`. */
  pluginRoutes?: PluginRouteRegistry;
}

export interface RestServer {
  readonly app: Koa;
  readonly options: RestOptions;
  readonly metrics: RestMetrics | undefined;
  readonly hub: EventHub;
  readonly routes: readonly AnyRoute[];
  /** `http://host:port` once listening. */
  readonly url: string;
  readonly port: number;
  /** The OpenAPI 3.1 document of the mounted routes. */
  openapi(): Record<string, unknown>;
  listen(): Promise<void>;
  /** Stops taking requests, ends SSE streams, lets in-flight requests finish (closeTimeoutMs). */
  close(): Promise<void>;
}

/** Refusals by our own policy worth a warning (the caller's error, but an operator may care). */
const POLICY_REFUSALS: ReadonlySet<string> = new Set(['MEDIA_URL_REFUSED']);

export { isLoopbackHost };

function checkSecurity(options: RestOptions): void {
  if (options.tokens.length > 0) return;
  if (!options.insecure) {
    throw new WakitError(
      'CONFIG_INVALID',
      'plugins.rest.tokens is empty: add a token (e.g. "${WAKIT_REST_TOKEN}") or set insecure: true on a loopback host',
      { issues: [{ path: 'plugins.rest.tokens', message: 'at least one token is required' }] },
    );
  }
  if (!isLoopbackHost(options.host)) {
    throw new WakitError(
      'CONFIG_INVALID',
      `insecure: true is only allowed on a loopback host, not ${options.host}`,
      {
        issues: [{ path: 'plugins.rest.host', message: 'must be loopback when insecure' }],
      },
    );
  }
}

/** The principal of a request with a valid token (or insecure mode); undefined otherwise. */
function identify(auth: TokenAuth, ctx: Context): Principal | undefined {
  try {
    return auth.authenticate(ctx.get('authorization') || undefined);
  } catch {
    return undefined;
  }
}

function hasBody(ctx: Context): boolean {
  return ctx.get('transfer-encoding') !== '' || (ctx.request.length ?? 0) > 0;
}

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
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

export async function createRestServer(init: RestServerOptions): Promise<RestServer> {
  const options = restOptionsSchema.parse(init.options);
  checkSecurity(options);
  const { sdk } = init;
  const log = init.logger;
  const auth = new TokenAuth(options.tokens, options.insecure);
  const metrics = options.metrics ? new RestMetrics(sdk) : undefined;
  const hub = new EventHub(sdk, {
    bufferSize: options.sse.bufferSize,
    onListenerError: (error) => log.error({ err: error }, 'an event listener threw'),
  });
  const webhooks = new WebhookDispatcher({ hooks: options.webhooks, metrics, log });
  const status = { listening: false, closing: false };
  const rc: RestContext = { sdk, options, log, hub, metrics, streams: new Set(), status };
  const detachMetrics: (() => void)[] = [];
  if (metrics)
    detachMetrics.push(sdk.onClient((client) => detachMetrics.push(metrics.watch(client))));
  hub.subscribe((event) => {
    metrics?.event(event.event);
    webhooks.handle(event);
  });

  const routes: AnyRoute[] = [];
  let document: Record<string, unknown> | undefined;
  const openapi = (): Record<string, unknown> =>
    (document ??= buildOpenApi(routes, {
      title: 'wakit REST API',
      version: '1.0.0',
      description:
        'Send and receive WhatsApp messages through wakit clients. See docs/rest-api.md.',
    }));
  routes.push(
    ...systemRoutes(rc, openapi),
    ...clientRoutes(rc),
    ...messageRoutes(rc),
    ...eventRoutes(rc),
    ...simulatorRoutes(rc, sdk),
    ...(options.dashboard ? await dashboardRoutes() : []),
    ...(init.routes ?? []),
  );

  const parser = bodyParser({
    enableTypes: ['json'],
    jsonLimit: options.bodyLimit,
    jsonStrict: true,
    encoding: 'utf-8',
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  });
  const anonymous: Principal = { tokenIndex: -1, clients: '*' };
  const router = new Router();
  const deps = {
    anonymous,
    authenticate: (ctx: Context) => auth.authenticate(ctx.get('authorization') || undefined),
    async readBody(ctx: Context): Promise<unknown> {
      if (ctx.method === 'GET' || ctx.method === 'HEAD' || !hasBody(ctx)) return undefined;
      if (!ctx.is('application/json')) {
        throw new WakitError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be application/json');
      }
      try {
        await parser(ctx, () => Promise.resolve());
      } catch (error) {
        // Anything reading the body throws is the body's fault (bad gzip, aborted upload...).
        const problem = toProblem(error);
        if (problem.status < 500) throw error;
        throw new WakitError('VALIDATION_FAILED', 'The request body could not be read');
      }
      return ctx.request.body;
    },
  };
  mountRoutes(router, routes, deps);

  const app = new Koa({ proxy: false });
  app.on('error', (error: unknown) => log.debug({ err: error }, 'koa stream error'));
  app.use(async (ctx: Context, next: Next) => {
    const start = performance.now();
    try {
      if (status.closing) {
        ctx.set('Connection', 'close');
        throw new WakitError('SHUTTING_DOWN', 'The server is shutting down');
      }
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new WakitError('NOT_FOUND', `No route ${ctx.method} ${ctx.path}`);
      }
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500)
        log.error({ err: error, method: ctx.method, path: ctx.path }, 'request failed');
      else if (POLICY_REFUSALS.has(problem.code))
        log.warn({ code: problem.code, method: ctx.method, path: ctx.path }, problem.detail);
      sendProblem(ctx, problem);
    }
    if (status.closing) ctx.set('Connection', 'close');
    const ms = performance.now() - start;
    const route = (ctx.state.route as string | undefined) ?? '(unmatched)';
    metrics?.http(ctx.method, route, ctx.status, ms / 1000);
    log.info(
      {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
        client: ctx.state.client as string | undefined,
      },
      'http %s %s %d',
      ctx.method,
      ctx.path,
      ctx.status,
    );
  });
  app.use(async (ctx: Context, next: Next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    const origin = ctx.get('origin');
    if (options.cors && origin) {
      if (options.cors.some((allowed) => new URL(allowed).origin === origin)) {
        ctx.vary('Origin');
        ctx.set('Access-Control-Allow-Origin', origin);
        ctx.set('Access-Control-Expose-Headers', 'Location, Preference-Applied, WWW-Authenticate');
        if (ctx.method === 'OPTIONS') {
          ctx.set('Access-Control-Allow-Methods', 'GET, POST');
          ctx.set(
            'Access-Control-Allow-Headers',
            'Authorization, Content-Type, Last-Event-ID, Prefer',
          );
          ctx.set('Access-Control-Max-Age', '600');
          ctx.status = 204;
          return;
        }
      } else if (ctx.method === 'OPTIONS') {
        throw new WakitError('FORBIDDEN', 'Origin not allowed');
      }
    }
    await next();
  });
  if (options.rateLimit)
    app.use(rateLimitMiddleware(options.rateLimit, (ctx) => identify(auth, ctx)));
  app.use(requireUtf8);
  if (init.pluginRoutes) app.use(pluginRoutesMiddleware(rc, init.pluginRoutes, deps));
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () =>
        new WakitError('METHOD_NOT_ALLOWED', 'This route does not take this method'),
      notImplemented: () => new WakitError('METHOD_NOT_ALLOWED', 'This method is not supported'),
    }),
  );

  let server: Server | undefined;
  let url = '';
  let port = 0;
  let closed: Promise<void> | undefined;

  return {
    app,
    options,
    metrics,
    hub,
    routes,
    openapi,
    get url() {
      return url;
    },
    get port() {
      return port;
    },
    async listen() {
      if (server) return;
      // Requests without Host reach Koa (and get a problem+json answer) instead of Node's bare 400.
      const srv = createServer({ requireHostHeader: false }, app.callback());
      server = srv;
      srv.on('clientError', (error: NodeJS.ErrnoException, socket) =>
        rejectMalformed(error, socket),
      );
      srv.on('checkExpectation', answerExpectationFailed);
      srv.headersTimeout = 20_000;
      srv.requestTimeout = 60_000;
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(options.port, options.host, () => {
          srv.off('error', reject);
          resolve();
        });
      });
      port = (srv.address() as AddressInfo).port;
      const host =
        options.host.includes(':') && !options.host.startsWith('[')
          ? `[${options.host}]`
          : options.host;
      url = `http://${host}:${port}`;
      status.listening = true;
      log.info(
        { url, dashboard: options.dashboard, tokens: options.tokens.length },
        'REST API listening on %s',
        url,
      );
    },
    close() {
      closed ??= (async () => {
        status.closing = true;
        for (const stream of [...rc.streams]) stream.end();
        hub.close();
        for (const detach of detachMetrics.splice(0)) detach();
        await webhooks.close();
        const srv = server;
        if (!srv) return;
        const done = new Promise<void>((resolve) => srv.close(() => resolve()));
        // Connections that finish their last request while we wait become idle: close them too.
        const sweeper = setInterval(() => srv.closeIdleConnections(), 25);
        void done.finally(() => clearInterval(sweeper));
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), options.closeTimeoutMs);
        });
        if ((await Promise.race([done, deadline])) === 'timeout') {
          log.warn(
            'REST server: requests still running after %d ms, closing connections',
            options.closeTimeoutMs,
          );
          srv.closeAllConnections();
          await done;
        }
        clearTimeout(timer);
        clearInterval(sweeper);
        status.listening = false;
        log.info('REST API closed');
      })();
      return closed;
    },
  };
}
