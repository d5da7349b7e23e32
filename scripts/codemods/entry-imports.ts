/**
 * Codemod (issue 30, C2): rewrites static imports of `…/src/index.js` in the repository's tests,
 * plugins, bench and examples so that each name comes from the entry that exports it now: names
 * the root kept stay on `src/index.js`, the others move to `src/entries/<name>.js`.
 *
 *   npx tsx scripts/codemods/entry-imports.ts [folders…]   (default: test plugins bench examples)
 *
 * Prints every rewritten file and every name no entry exports (fix those by hand). Run
 * `npx prettier --write` on the files afterwards.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The names a module exports with `export { … }` / `export type { … }` lists. */
function exportedNames(file: string): Set<string> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue;
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) names.add(element.name.text);
  }
  return names;
}

/** Where a name is exported: `index` (the root) first, then the entries in this order. */
const ENTRY_ORDER = [
  'types',
  'contract',
  'http',
  'engine',
  'cluster',
  'config',
  'kernel',
  'testing',
];
const homes: Array<[string, Set<string>]> = [
  ['index', exportedNames(path.join(ROOT, 'src/index.ts'))],
  ...ENTRY_ORDER.map((name): [string, Set<string>] => [
    `entries/${name}`,
    exportedNames(path.join(ROOT, `src/entries/${name}.ts`)),
  ]),
];
const homeOf = (name: string) => homes.find(([, names]) => names.has(name))?.[0];

interface Taken {
  text: string;
  typeOnly: boolean;
}

/** The new import lines for one `import { … } from '<prefix>src/index.js'`. */
function rewrite(
  declaration: ts.ImportDeclaration,
  source: ts.SourceFile,
  prefix: string,
  unknown: string[],
): string | undefined {
  const clause = declaration.importClause;
  const bindings = clause?.namedBindings;
  if (!clause || clause.name || !bindings || !ts.isNamedImports(bindings)) return undefined;
  const byHome = new Map<string, Taken[]>();
  for (const element of bindings.elements) {
    const imported = (element.propertyName ?? element.name).text;
    const home = homeOf(imported);
    if (!home) {
      unknown.push(imported);
      return undefined;
    }
    const text = element.getText(source).replace(/^type\s+/, '');
    const list = byHome.get(home) ?? [];
    list.push({ text, typeOnly: clause.isTypeOnly || element.isTypeOnly });
    byHome.set(home, list);
  }
  if (byHome.size === 1 && byHome.has('index')) return undefined;
  return [...byHome]
    .map(([home, taken]) => {
      const allTypes = taken.every((t) => t.typeOnly);
      const names = taken
        .map((t) => (t.typeOnly && !allTypes ? `type ${t.text}` : t.text))
        .join(', ');
      return `import ${allTypes ? 'type ' : ''}{ ${names} } from '${prefix}src/${home}.js';`;
    })
    .join('\n');
}

function codemod(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  if (!text.includes('src/index.js')) return false;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    const match = /^((?:\.\.\/)+|\.\/)src\/index\.js$/.exec(specifier);
    if (!match) continue;
    const unknown: string[] = [];
    const replacement = rewrite(statement, source, match[1] ?? '', unknown);
    for (const name of unknown) console.log(`${path.relative(ROOT, file)}: ${name} is in no entry`);
    if (replacement) {
      edits.push({ start: statement.getStart(source), end: statement.end, text: replacement });
    }
  }
  if (edits.length === 0) return false;
  let out = text;
  for (const edit of edits.reverse()) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  writeFileSync(file, out);
  console.log(`rewrote ${path.relative(ROOT, file)}`);
  return true;
}

const folders = process.argv.slice(2);
let changed = 0;
for (const folder of folders.length > 0 ? folders : ['test', 'plugins', 'bench', 'examples']) {
  for (const entry of readdirSync(path.join(ROOT, folder), {
    recursive: true,
    withFileTypes: true,
  })) {
    if (!entry.isFile() || !/\.(ts|mts)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    if (codemod(file)) changed += 1;
  }
}
console.log(`${changed} files rewritten`);
