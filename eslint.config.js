import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * The dependency rules of DESIGN.md §1, checked by `npm run lint` (and so by `npm test`):
 * - only src/engines/wwebjs/ imports whatsapp-web.js or puppeteer;
 * - src/engines/ never imports src/client/ (the Engine port owns its vocabulary);
 * - plugins/ imports only the public entries, src/index.ts and the subpath entries of package.json
 *   `exports` (src/entries/<name>.ts), exactly as a user plugin imports `wakitjs` and `wakitjs/<name>`;
 * - nothing in src/ imports the top-level plugins/ (src/plugins/, the plugin host, is core);
 * - storage (src/auth/) knows nothing of clients or the queue.
 * no-restricted-imports matches the import string, not the resolved file, so the rules are
 * generated per folder with the folder's depth ("../../plugins" from src/cli/ leaves src/, "../plugins"
 * does not). test/architecture/dependency-rules.test.ts proves each rule fires.
 */
const ROOT = import.meta.dirname;

/** Every folder under `top` (itself included), as repository-relative POSIX paths. */
function foldersUnder(top) {
  const out = [top];
  for (const entry of readdirSync(path.join(ROOT, top), { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...foldersUnder(`${top}/${entry.name}`));
  }
  return out;
}

/** `../` repeated until the repository root, from a file in `folder`. */
const toRoot = (folder) => '\\.\\./'.repeat(folder.split('/').length);
const BROWSER_LIBS = '^(whatsapp-web\\.js|puppeteer(-core)?)(/|$)';

const browserLibs = {
  regex: BROWSER_LIBS,
  message: 'Only src/engines/wwebjs/ imports whatsapp-web.js or puppeteer (DESIGN.md §1).',
};

function srcPatterns(folder) {
  const patterns = [
    {
      regex: `^${toRoot(folder)}plugins(/|$)`,
      message: 'Nothing in src/ imports the built-in plugins/ (DESIGN.md §1).',
    },
  ];
  if (!`${folder}/`.startsWith('src/engines/wwebjs/')) patterns.push(browserLibs);
  if (`${folder}/`.startsWith('src/engines/')) {
    patterns.push({
      regex: '^(\\.\\./)+(src/)?client(/|$)',
      message:
        'src/engines/ never imports src/client/: the Engine port owns its vocabulary (DESIGN.md §1).',
    });
  }
  if (`${folder}/`.startsWith('src/auth/')) {
    patterns.push({
      regex: '^(\\.\\./)+(client|queue)(/|$)',
      message: 'Storage (src/auth/) knows nothing of clients or the queue (DESIGN.md §1).',
    });
  }
  return patterns;
}

/** The subpath entries of package.json `exports` that are src/entries/<name>.ts (`wakitjs/<name>`). */
const SRC_ENTRIES = Object.values(
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).exports,
)
  .map((target) => /^\.\/dist\/entries\/([\w-]+)\.js$/.exec(target?.import ?? '')?.[1])
  .filter(Boolean);

function pluginPatterns(folder) {
  const entries = `entries/(${SRC_ENTRIES.join('|')})`;
  return [
    {
      regex: `^${toRoot(folder)}src/(?!(index|${entries})\\.js$)`,
      message:
        'plugins/ imports only the public entries, src/index.ts and src/entries/<name>.ts of package.json exports (DESIGN.md §1).',
    },
    browserLibs,
  ];
}

const dependencyRules = [
  ...foldersUnder('src').map((folder) => ({
    files: [`${folder}/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: srcPatterns(folder) }] },
  })),
  ...foldersUnder('plugins').map((folder) => ({
    files: [`${folder}/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: pluginPatterns(folder) }] },
  })),
  {
    // Lazy `await import('puppeteer')` escapes no-restricted-imports: catch it here.
    files: ['src/**/*.ts', 'plugins/**/*.ts'],
    ignores: ['src/engines/wwebjs/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/^(whatsapp-web\\.js|puppeteer)/]',
          message: browserLibs.message,
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'templates/',
      'test-artifacts/',
      '.wakit/',
      'bin/',
      '*.cjs',
      'packages/*/dist/',
      'packages/*/templates/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false } },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  ...dependencyRules,
);
