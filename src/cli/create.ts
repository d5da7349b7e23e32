import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WakitError } from '../errors/index.js';
import type { CliIo } from './io.js';
import { isSourceCheckout, packageRoot } from './paths.js';

export const TEMPLATES = ['basic', 'rest-api', 'ai'] as const;
export type TemplateName = (typeof TEMPLATES)[number];

export interface CreateOptions {
  template: string;
  install: boolean;
  /** The `wakitjs` dependency written into package.json; default: the local checkout (`file:`) when run from it, else `^<version>`. */
  dependency?: string;
  /** Allow a target inside another npm package (a monorepo). */
  insidePackage?: boolean;
}

/** The npm name wakit is published under (the command stays `wakit`). */
export const PACKAGE_NAME = 'wakitjs';

/** The nearest directory at or above `dir` that has a package.json, if any. */
export function enclosingPackage(dir: string): string | undefined {
  let at = path.resolve(dir);
  for (;;) {
    if (existsSync(path.join(at, 'package.json'))) return at;
    const parent = path.dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

const GITIGNORE = `# wakit: never commit sessions, secrets or saved media
node_modules/
dist/
.wakit/
.env
.env.*
!.env.example
media/
*.log
`;

/** A valid npm package name from a directory name. */
export function packageNameFor(dir: string): string {
  const name = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 214);
  return name || 'wakit-bot';
}

async function wakitDependency(root: string): Promise<string> {
  // a test (or a maintainer) points new projects at a tarball: WAKIT_DEPENDENCY=/path/wakitjs-0.1.0.tgz
  if (process.env.WAKIT_DEPENDENCY) return process.env.WAKIT_DEPENDENCY;
  if (isSourceCheckout(root)) return `file:${root}`;
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  return `^${pkg.version}`;
}

function run(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/**
 * `wakit create <dir>`: copies a template, names the package, writes .gitignore, installs.
 * Resolves with the exit code: 1 when `npm install` failed (the project is there; npm said why).
 */
export async function createProject(
  dir: string,
  options: CreateOptions,
  io: CliIo,
): Promise<number> {
  if (!(TEMPLATES as readonly string[]).includes(options.template)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `Unknown template ${options.template}: use ${TEMPLATES.join(' or ')}`,
    );
  }
  const target = path.resolve(dir);
  if (existsSync(target)) {
    const entries = await readdir(target).catch(() => {
      throw new WakitError('VALIDATION_FAILED', `${target} exists and is not a directory`);
    });
    if (entries.length > 0) {
      throw new WakitError('VALIDATION_FAILED', `${target} is not empty: choose a new directory`);
    }
  }
  const outer = enclosingPackage(path.dirname(target));
  if (outer !== undefined && !options.insidePackage) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `${target} would be inside the npm package at ${outer} (its lint, tests and installs would ` +
        'pick up the bot): create it somewhere else, e.g. `cd .. && npm create wakit@latest my-bot`, ' +
        'or pass --inside-package if you mean it',
    );
  }
  const root = packageRoot();
  const source = path.join(root, 'templates', options.template);
  await mkdir(target, { recursive: true });
  await cp(source, target, {
    recursive: true,
    // relative to the template: an installed package itself lives under node_modules
    filter: (from) => !path.relative(source, from).split(path.sep).includes('node_modules'),
  });
  const pkgFile = path.join(target, 'package.json');
  const pkg = JSON.parse(await readFile(pkgFile, 'utf8')) as Record<string, unknown> & {
    dependencies?: Record<string, string>;
  };
  pkg.name = packageNameFor(target);
  pkg.dependencies = {
    ...pkg.dependencies,
    [PACKAGE_NAME]: options.dependency ?? (await wakitDependency(root)),
  };
  await writeFile(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  await writeFile(path.join(target, '.gitignore'), GITIGNORE);
  io.out(`Created ${String(pkg.name)} in ${target} from the ${options.template} template.`);
  if (options.install) {
    io.out('Installing dependencies (npm install)...');
    const code = await run('npm', ['install', '--no-audit', '--no-fund'], target);
    if (code !== 0) {
      // npm's own output says why (network, a compiler for better-sqlite3, ...): not a wakit error
      io.err(
        `npm install failed (exit code ${code}; npm's messages are above). The project is created: ` +
          `fix what npm reports, then run \`npm install\` in ${target}.`,
      );
      return 1;
    }
  }
  const rel = path.relative(process.cwd(), target) || '.';
  io.out(
    [
      '',
      'Next steps:',
      `  cd ${rel}`,
      ...(options.install ? [] : ['  npm install']),
      ...(options.template === 'rest-api'
        ? ['  cp .env.example .env   # then set WAKIT_REST_TOKEN (openssl rand -hex 32)']
        : []),
      ...(options.template === 'ai'
        ? [
            '  ollama pull llama3.1   # the local model it uses (or OpenAI: OPENAI_API_KEY, see README.md)',
          ]
        : []),
      '  npm run dev     # run the bot on the simulator (no phone needed)',
      '  npm start       # run it on WhatsApp: scan the QR code with your phone',
      '  npm test        # run the plugin tests',
      '',
      options.template === 'ai'
        ? 'Edit plugins/assistant.ts and bot.config.json to make it yours.'
        : 'Edit plugins/hello.ts and bot.config.json to make it yours.',
    ].join('\n'),
  );
  return 0;
}
