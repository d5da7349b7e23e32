// Every code a newcomer copies imports what exists: the package is `wakitjs` (the npm package
// `wakit` belongs to someone else), and every name imported from it is exported (issue 29, item 2).
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPO = path.resolve('.');

/** Files under `dir` (recursively) whose name matches `pattern`, repository-relative. */
function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && pattern.test(e.name))
    .map((e) => path.relative(REPO, path.join(e.parentPath, e.name)))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

/** The JavaScript/TypeScript code blocks of a Markdown file; a source file is one block. */
function codeOf(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  if (!file.endsWith('.md')) return [text];
  return [...text.matchAll(/```(?:ts|tsx|js|mjs|cjs|typescript|javascript)\n([\s\S]*?)```/g)].map(
    (m) => m[1] ?? '',
  );
}

interface ImportLine {
  specifier: string;
  names: string[];
}

/** Every module specifier of a piece of code, with the names an `import { … } from` takes. */
function importsOf(code: string): ImportLine[] {
  const found: ImportLine[] = [];
  for (const m of code.matchAll(
    /\b(?:import|export)\s+(type\s+)?(?:([\w*\s{},$]+?)\s+from\s+)?['"]([^'"]+)['"]/g,
  )) {
    const braces = /\{([^}]*)\}/.exec(m[2] ?? '')?.[1] ?? '';
    const names = braces
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] ?? '',
      )
      .filter(Boolean);
    found.push({ specifier: m[3] ?? '', names });
  }
  for (const m of code.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push({ specifier: m[1] ?? '', names: [] });
  }
  return found;
}

/**
 * `wakitjs` and `wakitjs/<entry>` (package.json `exports`) → the source file of that entry: a
 * bundle of src/ (dist/<path>.js → src/<path>.ts), or a built-in plugin's (dist/plugins/<name>/ →
 * plugins/<name>/, `wakitjs/ai`).
 */
const ENTRIES = new Map(
  Object.entries(
    (
      JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
        exports: Record<string, { import?: string } | string>;
      }
    ).exports,
  )
    .filter(([, target]) => typeof target === 'object' && target.import?.endsWith('.js'))
    .map(([key, target]) => [
      `wakitjs${key.slice(1)}`,
      (target as { import: string }).import
        .replace(/^\.\/dist\/plugins\//, 'plugins/')
        .replace(/^\.\/dist\//, 'src/')
        .replace(/\.js$/, '.ts'),
    ]),
);

const SOURCES = [
  'README.md',
  ...filesUnder('docs', /\.md$/),
  ...filesUnder('templates', /\.(md|ts)$/),
  ...filesUnder('packages/create-wakit', /\.md$/),
];

describe('imports in the docs and templates', () => {
  it('finds code to check (README, docs, templates)', () => {
    const all = SOURCES.flatMap((file) => codeOf(file).flatMap(importsOf));
    expect(all.filter((i) => i.specifier === 'wakitjs').length).to.be.greaterThan(5);
  });

  it('import only wakitjs, node: built-ins and relative files (never the stranger package `wakit`)', () => {
    // wakitjs and its subpath entries (package.json `exports`)
    const { exports } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const entries = new Set(Object.keys(exports).map((key) => `wakitjs${key.slice(1)}`));
    const wrong = SOURCES.flatMap((file) =>
      codeOf(file)
        .flatMap(importsOf)
        .filter(
          ({ specifier }) =>
            !entries.has(specifier) &&
            !specifier.startsWith('node:') &&
            !/^\.\.?\//.test(specifier),
        )
        .map(({ specifier }) => `${file}: '${specifier}'`),
    );
    expect(wrong).to.deep.equal([]);
  });

  it('the package entries are the files src/index.ts, src/entries/<name>.ts and plugins/ai/index.ts', () => {
    expect([...ENTRIES.keys()])
      .to.include('wakitjs')
      .and.include('wakitjs/types')
      .and.include('wakitjs/ai');
    expect(ENTRIES.get('wakitjs/ai')).to.equal('plugins/ai/index.ts');
    for (const [specifier, file] of ENTRIES) {
      expect(existsSync(path.join(REPO, file)), `${specifier}: ${file}`).to.equal(true);
    }
  });

  it('import from wakitjs (or wakitjs/<entry>) only names the exports of that entry', async () => {
    const missing: string[] = [];
    for (const [specifier, file] of ENTRIES) {
      const api = (await import(path.join(REPO, file))) as Record<string, unknown>;
      const text = readFileSync(path.join(REPO, file), 'utf8');
      // type-only exports are not runtime values: they are named in the entry's export lists
      const exported = (name: string) =>
        name in api || new RegExp(`\\b(?:type\\s+)?${name}\\b`).test(text);
      missing.push(
        ...SOURCES.flatMap((source) =>
          codeOf(source)
            .flatMap(importsOf)
            .filter((i) => i.specifier === specifier)
            .flatMap(({ names }) => names.filter((name) => !exported(name)))
            .map((name) => `${source}: ${name} (${specifier})`),
        ),
      );
    }
    expect(missing).to.deep.equal([]);
  });

  it('nothing shipped refers to DESIGN.md (it is not in the package)', () => {
    const shipped = [
      'README.md',
      ...filesUnder('docs', /\.md$/),
      ...filesUnder('templates', /./),
      ...filesUnder('src', /\.ts$/),
      ...filesUnder('plugins', /\.(ts|js|html)$/),
    ];
    const referring = shipped.filter((file) =>
      readFileSync(path.join(REPO, file), 'utf8').includes('DESIGN.md'),
    );
    expect(referring).to.deep.equal([]);
  });
});
