/**
 * The simulator is its own entry (`wakitjs/simulator`): nothing `import 'wakitjs'` loads
 * statically reaches src/engines/simulator/. A small walker follows the runtime imports and
 * re-exports of relative specifiers (`import type`/`export type` are erased; dynamic `import()`
 * is where loading on demand happens, so it is not followed).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// the engine, and the plugin of its REST routes (shipped with the entry)
const SIMULATOR = ['src/engines/simulator', 'src/simulator-plugin'].map(
  (folder) => path.join(ROOT, folder) + path.sep,
);

/** The .ts file a relative specifier names (`./a.js` → a.ts, `./dir/index.js`). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((file) => file.endsWith('.ts') && existsSync(file));
}

/** The files a file imports or re-exports at run time, through relative specifiers. */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const resolved = resolveSpecifier(file, specifier.text);
    if (resolved) out.push(resolved);
  }
  return out;
}

/** Every file reachable from `entry` by static runtime imports, with the importer of each. */
function reachable(entry: string): Map<string, string | undefined> {
  const seen = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  for (let file = queue.shift(); file; file = queue.shift()) {
    for (const next of staticImports(file)) {
      if (seen.has(next)) continue;
      seen.set(next, file);
      queue.push(next);
    }
  }
  return seen;
}

const rel = (file: string) => path.relative(ROOT, file);

describe('the simulator is loaded on demand (its own entry)', () => {
  it('nothing statically reachable from src/index.ts imports src/engines/simulator/', () => {
    const graph = reachable(path.join(ROOT, 'src/index.ts'));
    const simulator = [...graph.keys()].filter((file) =>
      SIMULATOR.some((folder) => file.startsWith(folder)),
    );
    const paths = simulator.map((file) => `${rel(graph.get(file) ?? '')} → ${rel(file)}`);
    expect(paths).to.deep.equal([]);
    // the walker sees the graph: the core (sdk, engine choice, the provider table) is in it
    expect([...graph.keys()].map(rel)).to.include.members([
      'src/sdk.ts',
      'src/engines/engine-for-config.ts',
      'src/engines/engine-loader.ts',
    ]);
  });

  it('the wakitjs/simulator entry reaches the simulator statically (the walker follows re-exports)', () => {
    const graph = reachable(path.join(ROOT, 'src/entries/simulator.ts'));
    expect([...graph.keys()].map(rel)).to.include.members([
      'src/engines/simulator/index.ts',
      'src/engines/simulator/network.ts',
      'src/engines/simulator/engine.ts',
      'src/simulator-plugin/index.ts',
    ]);
  });
});
