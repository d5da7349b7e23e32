// Runs wakit from its TypeScript sources: registers tsx, and maps `import 'wakitjs'` (user plugins,
// template tests) onto src/index.ts so a checkout works without a build.
// Use: node --import <repo>/src/cli/register-source.mjs ...
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register as registerTsx } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const index = pathToFileURL(path.join(root, 'src', 'index.ts')).href;
const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'wakitjs') return { url: ${JSON.stringify(index)}, shortCircuit: true };
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
// wakit's sources need its tsconfig (decorators); files outside it get tsx defaults
registerTsx({ tsconfig: path.join(root, 'tsconfig.json') });
