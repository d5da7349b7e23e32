/**
 * Runs one measurement of a benchmark in a child process of its own
 * (`node --import tsx [nodeArgs] <script> [args]`): resolves with the record of numbers the
 * worker sends over IPC before it exits.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export function runWorker(
  script: string,
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, script, ...args], {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: Record<string, number> | undefined;
    child.on('message', (message: Record<string, number>) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) =>
      result
        ? resolve(result)
        : reject(
            new Error(`bench worker ${path.basename(script)} ${args.join(' ')} exited ${code}`),
          ),
    );
  });
}
