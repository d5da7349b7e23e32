import { defineConfig } from 'tsup';

/**
 * dist/index.js (the package entry, with bundled .d.ts), dist/cli.js (bin/wakit.js runs it) and
 * the built-in plugins as dist/plugins/<name>/index.js. One ESM build with code splitting, so the
 * CLI, the plugins and `import 'wakitjs'` share one copy of every module (one WakitError class).
 */
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    'entries/simulator': 'src/entries/simulator.ts',
    'plugins/rest/index': 'plugins/rest/index.ts',
    'plugins/auto-reply/index': 'plugins/auto-reply/index.ts',
    'plugins/forwarder/index': 'plugins/forwarder/index.ts',
    'plugins/media-saver/index': 'plugins/media-saver/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: true,
  clean: true,
  dts: {
    entry: { index: 'src/index.ts', 'entries/simulator': 'src/entries/simulator.ts' },
  },
  outDir: 'dist',
  // tsyringe needs the Reflect polyfill before it loads; chunks may import it first otherwise
  banner: { js: "import 'reflect-metadata';" },
});
