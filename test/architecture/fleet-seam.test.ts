/**
 * The fleet seam (docs/scaling.md): everything of a fleet lives in src/cluster/ and is loaded with
 * `import()` only when `cluster` is configured. So only src/cluster/ imports ioredis, and nothing
 * that `import 'wakitjs'` loads (the static, value imports reachable from src/index.ts) is a file
 * of src/cluster/, bar the allowlist below.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');

interface Imports {
  /** Specifiers loaded when the file is (value imports and re-exports, not `import type`). */
  values: string[];
  /** Every specifier, type-only and `import()` included. */
  all: string[];
}

function importsOf(file: string): Imports {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const values: string[] = [];
  const all: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      all.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const specifier = statement.moduleSpecifier.text;
      all.push(specifier);
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) values.push(specifier);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const specifier = statement.moduleSpecifier.text;
      all.push(specifier);
      const clause = statement.exportClause;
      const typeOnly =
        statement.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) values.push(specifier);
    }
  }
  visit(source);
  return { values, all };
}

/** The repository file a relative specifier names (`./x.js` → `x.ts`), or undefined for a package. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    base.replace(/\.js$/, '.ts'),
    `${base}.ts`,
    path.join(base, 'index.ts'),
    base,
  ]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  throw new Error(`${rel(from)}: cannot resolve ${specifier}`);
}

/** Files and packages the value imports of `entry` load, transitively. */
function staticallyLoaded(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of importsOf(file).values) {
      const target = resolve(file, specifier);
      if (target) queue.push(target);
      else packages.add(specifier);
    }
  }
  return { files, packages };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the fleet seam', () => {
  it('only src/cluster/ imports ioredis (static, type-only and lazy imports)', () => {
    const importers = [
      ...sourceFiles(path.join(ROOT, 'src')),
      ...sourceFiles(path.join(ROOT, 'plugins')),
    ]
      .filter((file) =>
        importsOf(file).all.some((s) => s === 'ioredis' || s.startsWith('ioredis/')),
      )
      .map(rel);
    expect(importers, 'the check sees the fleet').to.include('src/cluster/redis-connection.ts');
    expect(importers.filter((file) => !file.startsWith('src/cluster/'))).to.deep.equal([]);
  });

  it("import 'wakitjs' loads no file of src/cluster/ and not ioredis: the fleet is loaded lazily", () => {
    const { files, packages } = staticallyLoaded(path.join(ROOT, 'src/index.ts'));
    expect(files.size, 'the walker follows imports').to.be.greaterThan(50);
    const cluster = [...files].map(rel).filter((file) => file.startsWith('src/cluster/'));
    expect(cluster).to.deep.equal([]);
    expect([...packages].filter((name) => name.startsWith('ioredis'))).to.deep.equal([]);
  });

  it('the walker sees through to the fleet when it is the entry (so the check above can fail)', () => {
    const { files, packages } = staticallyLoaded(path.join(ROOT, 'src/cluster/index.ts'));
    expect([...files].map(rel)).to.include.members([
      'src/cluster/fleet.ts',
      'src/cluster/outbox/redis-outbox.ts',
    ]);
    expect(packages).to.include('ioredis');
  });
});
