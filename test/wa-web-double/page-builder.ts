/**
 * Assembles the double into ONE self-contained HTML page (every script inline, no other
 * request), the way whatsapp-web.js's LocalWebCache serves a build: `<dir>/<version>.html`
 * (webCache/LocalWebCache.js:20) answers the request for https://web.whatsapp.com/.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DoubleBuild } from './builds.js';
import { DEFAULT_WORLD, type DoubleWorld } from './world.js';

/** The page scripts, in load order. */
const PARTS = [
  'core',
  'wid',
  'socket',
  'collections',
  'send',
  'status',
  'events',
  'actions',
  'groups',
  'changes',
  'october',
  'phone',
] as const;
const PAGE_DIR = path.join(import.meta.dirname, 'page');

/** JSON that is safe inside an inline <script>. */
const inlineJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

export function buildPage(build: DoubleBuild, world: DoubleWorld = DEFAULT_WORLD): string {
  const scripts = PARTS.map((part) => readFileSync(path.join(PAGE_DIR, `${part}.js`), 'utf8'));
  for (const [i, script] of scripts.entries()) {
    if (/<\/script/i.test(script)) throw new Error(`page/${PARTS[i]}.js contains </script`);
  }
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>WhatsApp (double ${build.version})</title><link rel="icon" href="data:,">`,
    '<script>',
    `window.__doubleBuild = ${inlineJson(build)};`,
    `window.__doubleWorld = ${inlineJson(world)};`,
    ...scripts,
    '</script>',
    '</head><body><div id="app">WhatsApp Web double</div></body></html>',
  ].join('\n');
}

/** Writes `<dir>/<build.version>.html`; returns the directory for `webVersionCache.path`. */
export async function writeBuild(
  dir: string,
  build: DoubleBuild,
  world: DoubleWorld = DEFAULT_WORLD,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${build.version}.html`), buildPage(build, world));
  return dir;
}
