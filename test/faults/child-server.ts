/**
 * Runs test/helpers/outbox-child.ts as a real process (`node --import tsx`) for the fault tests:
 * waits on its JSON output lines (events and log lines) with generous deadlines, talks REST to it
 * over loopback, and reads the recipients' ground truth file it appends to.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ChildOptions } from '../helpers/outbox-child.js';

const CHILD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../helpers/outbox-child.ts',
);

export const TOKEN = 'fault-test-token-0123456789abcdef0123456789';
export const CONTACT = '15550001111';
export const CONTACT_ID = `${CONTACT}@c.us`;
/** Deadline for anything a child process must do; generous: the machine is shared and slow. */
export const DEADLINE_MS = 60_000;

export type Line = Record<string, unknown> & { event?: string; msg?: string };

export interface Response {
  status: number;
  json: unknown;
}

export interface ChildServer {
  readonly child: ChildProcess;
  readonly url: string;
  readonly lines: Line[];
  /** The first output line (seen or still to come) matching `predicate`. */
  waitFor(what: string, predicate: (line: Line) => boolean, timeoutMs?: number): Promise<Line>;
  request(
    method: string,
    route: string,
    init?: { json?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Writes a command line to the child's stdin (see outbox-child.ts). */
  command(cmd: Record<string, unknown>): void;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface Received {
  to: string;
  body: string;
  /** When it reached the recipient (the child's Date.now()). */
  at: number;
}

/** A scratch directory for one test: data path (session + outbox.db) and the ground truth file. */
export class FaultDir {
  private constructor(readonly dir: string) {}

  static async create(): Promise<FaultDir> {
    return new FaultDir(await mkdtemp(path.join(os.tmpdir(), 'wakit-fault-')));
  }

  get dataPath(): string {
    return path.join(this.dir, 'data');
  }

  get outbox(): string {
    return path.join(this.dataPath, 'outbox.db');
  }

  get receivedFile(): string {
    return path.join(this.dir, 'received.jsonl');
  }

  /** What the simulated recipients received, in order, across every process run so far. */
  received(): Received[] {
    if (!existsSync(this.receivedFile)) return [];
    return readFileSync(this.receivedFile, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Received);
  }

  remove(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a child server on `dir` and waits until its REST API listens and `bot` is READY. */
export async function startServer(dir: FaultDir, extra: SpawnOptions = {}): Promise<ChildServer> {
  const server = await spawnServer(dir, extra);
  await Promise.all([
    server.waitFor('started', (l) => l.event === 'started'),
    server.waitFor('ready', (l) => l.event === 'ready'),
  ]);
  return server;
}

export interface SpawnOptions extends Partial<Pick<ChildOptions, 'queue' | 'phones' | 'governor'>> {
  /** Runs the child under `ulimit -f` (KiB): a write beyond it fails with EFBIG, as on a full disk. */
  fileSizeLimitKb?: number;
}

/** Spawns a child server without waiting for it (start-up faults). */
export async function spawnServer(dir: FaultDir, extra: SpawnOptions = {}): Promise<ChildServer> {
  const options: ChildOptions = {
    dataPath: dir.dataPath,
    port: await freePort(),
    token: TOKEN,
    received: dir.receivedFile,
    phones: extra.phones ?? [CONTACT],
    ...(extra.queue ? { queue: extra.queue } : {}),
    ...(extra.governor ? { governor: extra.governor } : {}),
  };
  const args = ['--import', 'tsx', CHILD, JSON.stringify(options)];
  const child =
    extra.fileSizeLimitKb === undefined
      ? spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
      : spawn(
          '/bin/sh',
          ['-c', `ulimit -f ${extra.fileSizeLimitKb} && exec "$0" "$@"`, process.execPath, ...args],
          { stdio: ['pipe', 'pipe', 'inherit'] },
        );
  return watchChild(child, `http://127.0.0.1:${options.port}`, TOKEN);
}

/**
 * Follows a child process that prints JSON lines (any wakit test server): collects its lines, waits
 * on them, talks REST to it at `url` with `token`, and SIGKILLs it in `killAll`.
 */
export function watchChild(child: ChildProcess, url: string, token: string): ChildServer {
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  live.add(child);
  void exited.then(() => live.delete(child));
  const lines: Line[] = [];
  const waiters = new Set<{ predicate: (line: Line) => boolean; resolve(line: Line): void }>();
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      return;
    }
    lines.push(line);
    for (const waiter of waiters) {
      if (waiter.predicate(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });
  return {
    child,
    url,
    lines,
    exited,
    waitFor(what, predicate, timeoutMs = DEADLINE_MS) {
      const seen = lines.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (line: Line) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const tail = lines.slice(-20).map((l) => JSON.stringify(l));
          reject(
            new Error(
              `child ${child.pid}: no ${what} within ${timeoutMs} ms; last lines:\n${tail.join('\n')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
        void exited.then(({ code, signal }) => {
          if (!waiters.has(waiter)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          reject(new Error(`child ${child.pid} exited (${code ?? signal}) before ${what}`));
        });
      });
    },
    async request(method, route, init = {}) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        ...init.headers,
      };
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${url}${route}`, {
        method,
        headers,
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      });
      const text = await response.text();
      return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined };
    },
    command(cmd) {
      child.stdin?.write(`${JSON.stringify(cmd)}\n`);
    },
    kill(signal) {
      child.kill(signal);
      return exited;
    },
  };
}

const live = new Set<ChildProcess>();

/** SIGKILLs every child still running (after each test) and waits for them to be gone. */
export async function killAll(): Promise<void> {
  const running = [...live];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** How often each body arrived: bodies received more than once, with their counts. */
export function duplicates(received: Received[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of received) counts.set(r.body, (counts.get(r.body) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}

/** Polls `check` (cheap, local) until it holds or the deadline passes; returns whether it held. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = DEADLINE_MS,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
