#!/usr/bin/env node
// The wakit CLI launcher. In a checkout of the repository (src/ present, not under node_modules) it
// runs the TypeScript sources through tsx, so a stale dist/ never hides a change; an installed
// package runs the built CLI (dist/cli.js). WAKIT_FROM_DIST=1 forces the build.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = path.join(root, 'src', 'cli', 'main.ts');
const checkout = existsSync(sources) && !root.split(path.sep).includes('node_modules');

let entry;
if (!checkout || process.env.WAKIT_FROM_DIST === '1') {
  entry = pathToFileURL(path.join(root, 'dist', 'cli.js')).href;
} else {
  await import(pathToFileURL(path.join(root, 'src', 'cli', 'register-source.mjs')).href);
  entry = pathToFileURL(sources).href;
}
const { main } = await import(entry);
await main(process.argv.slice(2));
