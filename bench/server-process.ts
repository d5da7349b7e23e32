/**
 * Runs a benchmark's HTTP server in a child process of its own (apart from the load generator):
 * starts it, waits for the IPC message `{ listening: url }` it sends when ready (its stdout, where
 * a server logs, is discarded like a production log sink would take it), reads the CPU time it
 * has used so far and profiles it on demand (servers/cpu-probe.mjs, preloaded into every server),
 * stops it with SIGTERM and waits for it to exit.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const BENCH_DIR = import.meta.dirname;
export const REPO_ROOT = path.resolve(BENCH_DIR, '..');

export interface ServerProcess {
  url: string;
  pid: number;
  /** CPU time (user + system, µs, all threads) the server process has used since it started. */
  cpuMicros(): Promise<number>;
  /** Starts a CPU profile of the server's main thread. */
  startProfile(): Promise<void>;
  /** Stops it and writes it to `file` (a `.cpuprofile`, for bench/profile-summary.ts). */
  stopProfile(file: string): Promise<void>;
  stop(): Promise<void>;
}

const CPU_PROBE = pathToFileURL(path.join(BENCH_DIR, 'servers', 'cpu-probe.mjs')).href;

/**
 * Builds the package (`dist/`, as `npm ci` does through `prepare`) so a server measures the code
 * users install, not the TypeScript sources through tsx (whose transform keeps function names with
 * a helper call per closure: about a tenth slower on the REST send).
 */
export function buildPackage(): void {
  const tsup = path.join(REPO_ROOT, 'node_modules', 'tsup', 'dist', 'cli-default.js');
  const built = spawnSync(process.execPath, [tsup, '--silent'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`the package build (tsup) failed: ${built.status}`);
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

type Answer = { cpu?: NodeJS.CpuUsage; profiling?: true; profiled?: string; profileError?: string };

/** Sends `message` to the server's probe (servers/cpu-probe.mjs) and waits for its answer. */
function ask<T>(child: ChildProcess, message: object, pick: (answer: Answer) => T | undefined) {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error('the server did not answer the probe')), 30_000);
    const onMessage = (answer: Answer): void => {
      if (answer.profileError) done(new Error(answer.profileError));
      const value = pick(answer);
      if (value !== undefined) done(undefined, value);
    };
    const done = (error?: Error, value?: T): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      if (error) reject(error);
      else resolve(value!);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/**
 * Starts `node --import cpu-probe.mjs [nodeArgs] script port`; resolves once it listens. `env` is
 * added to this process's environment.
 */
export async function startServer(
  script: string,
  options: { nodeArgs?: string[]; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const args = ['--import', CPU_PROBE, ...(options.nodeArgs ?? []), script, String(port)];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited(child);
    clearTimeout(killer);
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${script} did not start in time`)),
        options.timeoutMs ?? 60_000,
      );
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited early (${code ?? signal})`));
      });
      child.on('message', (message: { listening?: string }) => {
        if (message.listening) {
          clearTimeout(timer);
          resolve(message.listening);
        }
      });
    });
    return {
      url,
      pid: child.pid!,
      cpuMicros: () => ask(child, { cpu: true }, (a) => a.cpu && a.cpu.user + a.cpu.system),
      startProfile: async () => {
        await ask(child, { profile: 'start' }, (a) => a.profiling);
      },
      stopProfile: async (file) => {
        await ask(child, { profile: 'stop', file }, (a) => a.profiled);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
