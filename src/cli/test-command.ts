import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { WakitError } from '../errors/index.js';
import type { CliIo } from './io.js';

const TEST_FILE = /\.test\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** Every `*.test.{ts,js,…}` file under `dir` (recursively, node_modules skipped), sorted. */
export async function findTestFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && TEST_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !file.split(path.sep).includes('node_modules'))
    .sort();
}

/**
 * `wakit test [dir]`: runs every test file of a bot project (default `test/`) with Node's test
 * runner and tsx, so a new test file is never silently left out. Resolves with the exit code.
 */
export async function runTests(dir: string, io: CliIo, cwd = process.cwd()): Promise<number> {
  const folder = path.resolve(cwd, dir);
  if (!existsSync(folder)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `No test folder ${folder}: put tests in test/*.test.ts`,
    );
  }
  const files = await findTestFiles(folder);
  if (files.length === 0) {
    io.err(`No *.test.ts files in ${folder}.`);
    return 1;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', ...files.map((f) => path.relative(cwd, f))],
      { cwd, stdio: 'inherit' },
    );
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
