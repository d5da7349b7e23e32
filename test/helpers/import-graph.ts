/**
 * The import graph of the repository's own TypeScript sources, for architecture tests.
 *
 * Every `import … from` and `export … from` with a module specifier is resolved the way tsc
 * resolves it (NodeNext), and kept when it lands on a source file of the repository. An edge is
 * type-only when the whole declaration is `import type` / `export type`, or when every named
 * element is `type`; a type-only edge is erased at run time, so it cannot make a load-order cycle.
 * Lazy `import()` calls are not edges (they load after the module graph has settled).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Repository-relative path of the imported file. */
  readonly to: string;
  /** True when the import is erased at run time. */
  readonly typeOnly: boolean;
}

/** Repository-relative file → its imports of other repository files. */
export type ImportGraph = ReadonlyMap<string, readonly ImportEdge[]>;

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowJs: false,
};

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist')
        out.push(...sourceFiles(root, rel));
    } else if (/\.(c|m)?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
  return out;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      clause !== undefined &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((e) => e.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (clause === undefined) return false; // `import './x.js'`: a side effect, a runtime edge
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

/** Builds the import graph of every .ts file under `dirs` (relative to `root`). */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const host = ts.createCompilerHost(OPTIONS);
  const graph = new Map<string, ImportEdge[]>();
  for (const rel of dirs.flatMap((d) => sourceFiles(root, d))) {
    const file = path.join(root, rel);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const edges: ImportEdge[] = [];
    for (const node of source.statements) {
      if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
      const spec = node.moduleSpecifier;
      if (spec === undefined || !ts.isStringLiteral(spec)) continue;
      const resolved = ts.resolveModuleName(spec.text, file, OPTIONS, host).resolvedModule;
      if (resolved === undefined || resolved.isExternalLibraryImport) continue;
      const to = path.relative(root, resolved.resolvedFileName).split(path.sep).join('/');
      if (to.startsWith('..') || to.endsWith('.d.ts')) continue;
      edges.push({ to, typeOnly: isTypeOnly(node) });
    }
    graph.set(rel, edges);
  }
  return graph;
}

/**
 * The strongly connected components with more than one file (or a file importing itself), by
 * Tarjan's algorithm; `runtimeOnly` drops type-only edges first. Each component's files are
 * sorted, and the components are sorted by their first file, so the result compares as data.
 */
export function importCycles(graph: ImportGraph, runtimeOnly: boolean): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const targets = (file: string) =>
    (graph.get(file) ?? []).filter((e) => !(runtimeOnly && e.typeOnly)).map((e) => e.to);

  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of targets(file)) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || targets(file).includes(file)) components.push(component.sort());
  };

  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return components.sort((a, b) => a[0].localeCompare(b[0]));
}
