import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { CliIo } from './io.js';

export interface WatchOptions {
  /** The config file: it, `.env` beside it and its `plugins/` folder are watched. */
  config: string;
  /** Arguments of the child `wakit` (without --watch). */
  args: readonly string[];
  /** Quiet time after the last change before restarting. */
  debounceMs?: number;
}

/**
 * `wakit dev --watch`: runs `wakit <args>` as a child process and restarts it (SIGTERM, wait,
 * start again) when the config, `.env` or a file under `plugins/` changes. A new process, so
 * changed plugin modules are really loaded again. Resolves with the exit code on SIGINT/SIGTERM.
 */
export function watchAndRestart(options: WatchOptions, io: CliIo): Promise<number> {
  const config = path.resolve(options.config);
  const dir = path.dirname(config);
  const bin = process.argv[1] ?? '';
  let child: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;

  const start = () => {
    child = spawn(process.execPath, [...process.execArgv, bin, ...options.args], {
      stdio: 'inherit',
    });
  };
  const stopChild = () =>
    new Promise<void>((resolve) => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  const restart = (what: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void (async () => {
        if (stopping) return;
        io.out(`\n${what} changed: restarting...`);
        await stopChild();
        if (!stopping) start();
      })();
    }, options.debounceMs ?? 200);
  };

  const watchers: FSWatcher[] = [];
  const plugins = path.join(dir, 'plugins');
  if (existsSync(plugins)) {
    watchers.push(watch(plugins, { recursive: true }, (_e, file) => restart(`plugins/${file}`)));
  }
  watchers.push(
    watch(dir, (_e, file) => {
      if (file === path.basename(config) || file === '.env') restart(String(file));
    }),
  );
  io.out(
    `Watching ${path.relative(process.cwd(), config) || config}, .env and plugins/ for changes.`,
  );
  start();

  return new Promise((resolve) => {
    const onSignal = () => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
      void stopChild().then(() => resolve(child?.exitCode ?? 0));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
