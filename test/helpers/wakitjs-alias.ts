/**
 * Lets tests load the templates' plugins as they are (they import `wakitjs`, the published
 * package): a module hook resolves `wakitjs` and `wakitjs/<entry>` to this repository's sources,
 * the same module instances the tests import.
 */
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const map = {
  wakitjs: pathToFileURL(path.join(SRC, 'index.ts')).href,
  entries: pathToFileURL(path.join(SRC, 'entries')).href,
};
const hook = `
const map = ${JSON.stringify(map)};
export async function resolve(specifier, context, next) {
  if (specifier === 'wakitjs') return { url: map.wakitjs, shortCircuit: true };
  if (specifier.startsWith('wakitjs/')) {
    return { url: map.entries + '/' + specifier.slice('wakitjs/'.length) + '.ts', shortCircuit: true };
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

// Loaded once here through tsx, so the hook's URLs are served from the module cache: tsx
// compiles a .ts file only when its own resolver found it.
await import('../../src/index.js');
await import('../../src/entries/testing.js');
