// Packs create-wakit on its own: bundles the CLI's `create` (src/cli/create.ts of wakitjs) into
// dist/index.js with no dependencies, and copies the templates beside it. Run by `npm pack`.
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath, URL } from 'node:url';
import { build } from 'tsup';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
await rm(here('./templates'), { recursive: true, force: true });
await cp(here('../../templates'), here('./templates'), {
  recursive: true,
  filter: (from) => !/[\\/](node_modules|\.wakit)([\\/]|$)/.test(from),
});
await build({
  // not wakitjs's tsup.config.ts (found from here): its entries and declarations are not ours
  config: false,
  entry: { index: here('./src/index.ts') },
  outDir: here('./dist'),
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  silent: true,
  noExternal: [/.*/],
  tsconfig: here('../../tsconfig.json'),
  banner: { js: '#!/usr/bin/env node' },
});
