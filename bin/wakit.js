#!/usr/bin/env node
// The wakit CLI launcher: the built CLI (dist/cli.js) when present, else the TypeScript sources
// through tsx (a checkout of the repository; WAKIT_FROM_SOURCE=1 forces it).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'cli.js');

let entry;
if (existsSync(built) && process.env.WAKIT_FROM_SOURCE !== '1') {
  entry = pathToFileURL(built).href;
} else {
  await import(pathToFileURL(path.join(root, 'src', 'cli', 'register-source.mjs')).href);
  entry = pathToFileURL(path.join(root, 'src', 'cli', 'main.ts')).href;
}
const { main } = await import(entry);
await main(process.argv.slice(2));
