/**
 * A real `redis-server` (Debian's package, installed by `npm test` when missing) for the tests: on
 * a free loopback port, its data in a temporary directory, append-only file on (`appendfsync
 * always`), so `restart()` brings back everything acknowledged before the stop. Never a mock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class RedisServer {
  #child: ChildProcess | undefined;
  readonly port: number;
  readonly dir: string;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.dir = dir;
  }

  /** Starts a server on a free port; `stop()` it in `after`. */
  static async start(): Promise<RedisServer> {
    const server = new RedisServer(
      await freePort(),
      mkdtempSync(path.join(tmpdir(), 'wakit-redis-')),
    );
    await server.#spawn();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  async #spawn(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--protected-mode',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.#child = child;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) {
        this.#child = undefined;
        throw new Error(`redis-server exited with ${child.exitCode}: ${stderr}`);
      }
      const probe = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        const loading = await probe.info('persistence');
        if (!/loading:1/.test(loading)) {
          probe.disconnect();
          return;
        }
      } catch {
        // not up yet
      }
      probe.disconnect();
      if (Date.now() > deadline) throw new Error(`redis-server did not start: ${stderr}`);
      await sleep(50);
    }
  }

  /** Stops the server (SIGKILL when `hard`: no shutdown save, as a crash). */
  async stop({ hard = false } = {}): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(hard ? 'SIGKILL' : 'SIGTERM');
    await exited;
  }

  /** Stops and starts it again on the same port and data (the append-only file is replayed). */
  async restart({ downMs = 0, hard = false } = {}): Promise<void> {
    await this.stop({ hard });
    if (downMs > 0) await sleep(downMs);
    await this.#spawn();
  }

  /** Stops the server and deletes its data. */
  async dispose(): Promise<void> {
    await this.stop({ hard: true });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
