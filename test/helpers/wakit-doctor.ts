/** `wakit doctor` through the real CLI (bin/wakit.js) in a child process: its exit code and output. */
import { execFile } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve('bin/wakit.js');

export function doctor(cwd: string, args: string[] = []): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'doctor', ...args],
      { cwd, env: { ...process.env, PUPPETEER_EXECUTABLE_PATH: '' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}
