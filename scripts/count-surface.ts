/**
 * The public surface, counted: every name reachable from each package entry (package.json
 * `exports`: `wakitjs`, `wakitjs/types`, …, `wakitjs/ai`), values and types separately, the way a
 * user's editor sees them (the TypeScript checker, resolved through re-exports). A namespace export
 * (`export * as http`) is expanded: its members count, not the namespace; `z` (zod, re-exported so
 * plugins validate with wakit's instance) is counted as one value, not as zod's API.
 *
 * `npx tsx scripts/count-surface.ts` prints a table (entry, values, types, total);
 * `--markdown` prints docs/api-surface.md's budget table (ceiling: the total; `--names` lists the
 * names). test/architecture/public-surface.test.ts checks that table against `countSurface()`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Namespaces counted as one value, not expanded (zod's API is zod's, not wakit's). */
const NOT_EXPANDED = new Set(['z']);

export interface EntrySurface {
  /** `wakitjs` or `wakitjs/<subpath>`. */
  entry: string;
  /** The source file of the entry, repository-relative. */
  file: string;
  /** Names with a runtime meaning (functions, classes, constants), `ns.name` inside a namespace. */
  values: string[];
  /** Type-only names (interfaces, type aliases, `export type`). */
  types: string[];
}

/**
 * package.json `exports` → the source file of each entry: dist/<path>.js → src/<path>.ts, and a
 * built-in plugin's bundle (dist/plugins/<name>/index.js) → plugins/<name>/index.ts.
 */
export function entryFiles(root = ROOT): Map<string, string> {
  const { exports } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, { import?: string } | string>;
  };
  const files = new Map<string, string>();
  for (const [key, target] of Object.entries(exports)) {
    if (typeof target !== 'object' || !target.import?.endsWith('.js')) continue;
    files.set(
      `wakitjs${key.slice(1)}`,
      target.import
        .replace(/^\.\/dist\/plugins\//, 'plugins/')
        .replace(/^\.\/dist\//, 'src/')
        .replace(/\.js$/, '.ts'),
    );
  }
  return files;
}

/** A TypeScript program of every entry of the package at `root` (and what they import). */
export function surfaceProgram(root = ROOT): ts.Program {
  return ts.createProgram(
    [...entryFiles(root).values()].map((file) => path.join(root, file)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
  );
}

/** The names reachable from every entry of the package at `root`, in package.json order. */
export function countSurface(root = ROOT, program = surfaceProgram(root)): EntrySurface[] {
  const files = entryFiles(root);
  const check = program.getTypeChecker();

  /** Adds the exports of `module` to `surface`, namespaces expanded, names under `prefix`. */
  function collect(module: ts.Symbol, prefix: string, surface: EntrySurface): void {
    for (const exported of check.getExportsOfModule(module)) {
      const target =
        exported.flags & ts.SymbolFlags.Alias ? check.getAliasedSymbol(exported) : exported;
      const name = `${prefix}${exported.name}`;
      const typeOnly = exported.declarations?.some(
        (d) =>
          (ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) ||
          (ts.isNamespaceExport(d) && d.parent.isTypeOnly),
      );
      const namespace =
        (target.flags & ts.SymbolFlags.ValueModule) !== 0 &&
        target.declarations?.some((d) => ts.isSourceFile(d));
      if (namespace && !typeOnly && !NOT_EXPANDED.has(exported.name)) {
        collect(target, `${name}.`, surface);
        continue;
      }
      const isValue = !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0;
      (isValue ? surface.values : surface.types).push(name);
    }
  }

  return [...files].map(([entry, file]) => {
    const source = program.getSourceFile(path.join(root, file));
    const module = source && check.getSymbolAtLocation(source);
    if (!module) throw new Error(`${entry}: ${file} is not a module`);
    const surface: EntrySurface = { entry, file, values: [], types: [] };
    collect(module, '', surface);
    surface.values.sort();
    surface.types.sort();
    return surface;
  });
}

/** The surface as text: one line per entry, and the total. */
export function formatSurface(surfaces: EntrySurface[]): string {
  const rows = surfaces.map((s) => [
    s.entry,
    String(s.values.length),
    String(s.types.length),
    String(s.values.length + s.types.length),
  ]);
  const sum = (pick: (s: EntrySurface) => number) =>
    String(surfaces.reduce((n, s) => n + pick(s), 0));
  rows.push([
    'all entries',
    sum((s) => s.values.length),
    sum((s) => s.types.length),
    sum((s) => s.values.length + s.types.length),
  ]);
  const header = ['entry', 'values', 'types', 'total'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  return [header, ...rows]
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))))
    .map((r) => r.join('  '))
    .join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const surfaces = countSurface();
  if (process.argv.includes('--markdown')) {
    // the ceiling column says the total: keep a documented ceiling that is lower
    console.log('| entry | values | types | ceiling |\n| --- | ---: | ---: | ---: |');
    for (const s of surfaces) {
      const total = s.values.length + s.types.length;
      console.log(`| \`${s.entry}\` | ${s.values.length} | ${s.types.length} | ${total} |`);
    }
  } else {
    console.log(formatSurface(surfaces));
    if (process.argv.includes('--names')) {
      for (const s of surfaces) {
        console.log(`\n${s.entry} values: ${s.values.join(', ')}`);
        console.log(`${s.entry} types: ${s.types.join(', ')}`);
      }
    }
  }
}
