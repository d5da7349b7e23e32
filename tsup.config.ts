import { defineConfig } from 'tsup';

/** The package's subpath entries (`wakitjs/<name>` → src/entries/<name>.ts; docs/api-surface.md). */
const ENTRIES = [
  'types',
  'contract',
  'http',
  'engine',
  'cluster',
  'config',
  'kernel',
  'testing',
  'simulator',
];

/**
 * dist/index.js (the package entry), dist/entries/<name>.js (the subpath entries), dist/cli.js
 * (bin/wakit.js runs it) and the built-in plugins as dist/plugins/<name>/index.js. One ESM build
 * with code splitting, so the CLI, the plugins and every entry share one copy of every module (one
 * WakitError class). Declarations are not bundled here: `npm run build:types` (tsc,
 * tsconfig.build.json) emits them module by module, so a class two entries reach stays one type.
 */
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    ...Object.fromEntries(ENTRIES.map((name) => [`entries/${name}`, `src/entries/${name}.ts`])),
    cli: 'src/cli/main.ts',
    'plugins/rest/index': 'plugins/rest/index.ts',
    'plugins/auto-reply/index': 'plugins/auto-reply/index.ts',
    'plugins/forwarder/index': 'plugins/forwarder/index.ts',
    'plugins/media-saver/index': 'plugins/media-saver/index.ts',
    'plugins/mcp/index': 'plugins/mcp/index.ts',
    'plugins/ai/index': 'plugins/ai/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: true,
  clean: true,
  outDir: 'dist',
  // tsyringe needs the Reflect polyfill before it loads; chunks may import it first otherwise
  banner: { js: "import 'reflect-metadata';" },
});
