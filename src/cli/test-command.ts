import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { WakitError } from '../errors/index.js';
import { readDotEnv } from '../config/load.js';
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
 * runner and tsx, so a new test file is never silently left out; `.env` is loaded first and stack
 * traces are source-mapped. Resolves with the exit code.
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
  // the tests see the `${VAR}`s of .env like `wakit dev` does (createTestSdk reads it too)
  const env = { ...readDotEnv(path.join(cwd, 'bot.config.json')), ...process.env };
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        // failures point at the .ts line, not at tsx's compiled output
        '--enable-source-maps',
        '--import',
        'tsx',
        '--test',
        ...files.map((f) => path.relative(cwd, f)),
      ],
      { cwd, env, stdio: 'inherit' },
    );
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
