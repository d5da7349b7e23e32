/**
 * Moves the declarations of the built-in plugins that have a package entry (`wakitjs/ai`) from
 * dist/.plugin-types (tsc -p tsconfig.plugin-types.json) beside their bundles, dist/plugins/<name>/,
 * and points their imports of wakit's entries (`../../src/index.js`, `../../src/entries/<name>.js`)
 * at the package's own declarations (`../../index.js`, dist/index.d.ts; `../../entries/<name>.js`):
 * one declaration of every class, as for the other entries (docs/api-surface.md). The copies of
 * src/ tsc emitted on the way are dropped.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const EMITTED = path.join(ROOT, 'dist/.plugin-types');
const PLUGINS = ['ai'];

for (const name of PLUGINS) {
  const from = path.join(EMITTED, 'plugins', name);
  const to = path.join(ROOT, 'dist/plugins', name);
  await mkdir(to, { recursive: true });
  for (const file of await readdir(from)) {
    if (!file.endsWith('.d.ts')) continue;
    const text = await readFile(path.join(from, file), 'utf8');
    const rewritten = text
      .replaceAll(/(['"])\.\.\/\.\.\/src\/index\.js\1/g, '$1../../index.js$1')
      .replaceAll(/(['"])\.\.\/\.\.\/src\/entries\/([\w-]+)\.js\1/g, '$1../../entries/$2.js$1');
    if (/\.\.\/\.\.\/src\//.test(rewritten)) {
      throw new Error(`${name}/${file} imports wakit's sources beyond its public entries`);
    }
    await writeFile(path.join(to, file), rewritten);
  }
}
await rm(EMITTED, { recursive: true, force: true });
