import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { didYouMean, formatPath } from '../config/friendly.js';
import { issueError, type ErrorIssue } from '../errors/index.js';
import { isPlugin } from './define-plugin.js';
import type { PluginEntry } from './plugin-set.js';
import type { Plugin } from './types.js';

/** Built-in plugins, by the name used as a `config.plugins` key. */
export const BUILT_IN_PLUGINS = ['rest', 'auto-reply', 'forwarder', 'media-saver', 'ai'] as const;
export type BuiltInPluginName = (typeof BUILT_IN_PLUGINS)[number];

export function isBuiltInPlugin(key: string): key is BuiltInPluginName {
  return (BUILT_IN_PLUGINS as readonly string[]).includes(key);
}

/** `./x`, `../x`, absolute paths and anything ending in a script extension are files. */
export function isPathKey(key: string): boolean {
  return (
    key.startsWith('./') ||
    key.startsWith('../') ||
    path.isAbsolute(key) ||
    /\.(?:[cm]?[jt]s)$/.test(key)
  );
}

/**
 * Where the module of a built-in plugin is. From the sources (`src/plugins/loader.ts`) it is
 * `plugins/<name>/index.ts`; from the bundle (`dist/index.js`) `dist/plugins/<name>/index.js`, with
 * the TypeScript sources of the package (run through tsx) as a fallback.
 */
export function builtInPluginFile(name: BuiltInPluginName): string | undefined {
  return bundledModuleFile(name);
}

/** Where a module under the package's plugins/ is (a built-in plugin, or `mcp` of `wakit mcp`). */
function bundledModuleFile(name: string): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, '../../plugins', name, 'index.ts'),
    path.resolve(here, 'plugins', name, 'index.js'),
    path.resolve(here, '../plugins', name, 'index.ts'),
  ];
  return candidates.find((file) => existsSync(file));
}

let tsxRegistered: Promise<void> | undefined;

/** Imports a module; TypeScript files get tsx registered on first need (no build step). */
async function importFile(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    tsxRegistered ??= import('tsx/esm/api').then(({ register }) => {
      register();
    });
    await tsxRegistered;
    // the failed load of this URL is cached: import it again under another one
    return (await import(`${url}?tsx`)) as Record<string, unknown>;
  }
}

/** Finds a package's ESM entry from `baseDir` (node_modules lookup, `exports` → import/default). */
async function resolvePackage(name: string, baseDir: string): Promise<string> {
  const [scopeOrName = '', maybeName] = name.split('/');
  const packageName = name.startsWith('@') ? `${scopeOrName}/${maybeName ?? ''}` : scopeOrName;
  const subpath = name.slice(packageName.length);
  let dir = path.resolve(baseDir);
  for (;;) {
    const root = path.join(dir, 'node_modules', packageName);
    if (existsSync(path.join(root, 'package.json'))) {
      const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
        exports?: unknown;
        module?: string;
        main?: string;
      };
      const entry =
        pickExport(pkg.exports, `.${subpath}`) ??
        (subpath ? `.${subpath}` : (pkg.module ?? pkg.main ?? 'index.js'));
      return path.resolve(root, entry);
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const guess = didYouMean(name, BUILT_IN_PLUGINS);
  throw new Error(
    `package ${packageName} is not installed (looked in node_modules from ${baseDir} up)` +
      (guess ? `: did you mean the built-in plugin "${guess}"?` : '') +
      ` Built-in plugins: ${BUILT_IN_PLUGINS.join(', ')}; a plugin file of yours is written ./plugins/<name>.ts`,
  );
}

function pickExport(exports: unknown, subpath: string): string | undefined {
  if (exports === undefined || exports === null) return undefined;
  if (typeof exports === 'string') return subpath === '.' ? exports : undefined;
  if (typeof exports !== 'object') return undefined;
  const map = exports as Record<string, unknown>;
  const keyed = Object.keys(map).some((k) => k.startsWith('.'));
  const target = keyed ? map[subpath] : subpath === '.' ? map : undefined;
  return pickCondition(target);
}

function pickCondition(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const found = pickCondition(t);
      if (found) return found;
    }
    return undefined;
  }
  if (target && typeof target === 'object') {
    const map = target as Record<string, unknown>;
    for (const condition of ['import', 'node', 'default']) {
      const found = pickCondition(map[condition]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Takes the plugin out of a module: its default export, or an export named `plugin`. */
export function pluginFromModule(module: Record<string, unknown>): Plugin | undefined {
  for (const candidate of [
    module.default,
    module.plugin,
    (module.default as { default?: unknown } | undefined)?.default,
  ]) {
    if (isPlugin(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The module of `wakit mcp` (plugins/mcp/: the MCP server over stdio), loaded by file like a
 * built-in plugin (nothing in src/ imports plugins/); it is not a `config.plugins` key.
 */
export async function importMcpModule(): Promise<Record<string, unknown>> {
  const file = bundledModuleFile('mcp');
  if (!file) throw new Error('the MCP server (plugins/mcp) is not available in this installation');
  return importFile(file);
}

/** Imports the module behind one `config.plugins` key. */
export async function importPlugin(
  key: string,
  baseDir: string,
): Promise<{ plugin: Plugin; file: string }> {
  let file: string;
  if (isBuiltInPlugin(key)) {
    const found = builtInPluginFile(key);
    if (!found) throw new Error(`built-in plugin ${key} is not available in this installation`);
    file = found;
  } else if (isPathKey(key)) {
    file = path.resolve(baseDir, key);
    if (!existsSync(file)) throw new Error(`file ${file} does not exist`);
  } else {
    file = await resolvePackage(key, baseDir);
  }
  const module = await importFile(file);
  const plugin = pluginFromModule(module);
  if (!plugin) {
    throw new Error(`${file} does not export a plugin (export default definePlugin({ ... }))`);
  }
  return { plugin, file };
}

export interface LoadedPlugins {
  entries: PluginEntry[];
  /** Problems found while loading, with their `plugins.<key>` path. */
  issues: ErrorIssue[];
}

/** Imports every enabled plugin of `config.plugins` (`false` disables one); collects every problem. */
export async function importConfiguredPlugins(
  plugins: Readonly<Record<string, unknown>>,
  baseDir: string,
): Promise<LoadedPlugins> {
  const entries: PluginEntry[] = [];
  const issues: ErrorIssue[] = [];
  for (const [key, options] of Object.entries(plugins)) {
    if (options === false) continue;
    try {
      const { plugin } = await importPlugin(key, baseDir);
      entries.push({ plugin, options, source: key });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      issues.push({
        path: formatPath(['plugins', key]),
        message: `cannot load plugin ${key}: ${message}`,
      });
    }
  }
  return { entries, issues };
}

/** Like `importConfiguredPlugins`, but throws CONFIG_INVALID listing every load problem. */
export async function loadConfiguredPlugins(
  plugins: Readonly<Record<string, unknown>>,
  baseDir: string,
): Promise<PluginEntry[]> {
  const { entries, issues } = await importConfiguredPlugins(plugins, baseDir);
  if (issues.length > 0) {
    throw issueError('CONFIG_INVALID', 'Plugins could not be loaded', issues);
  }
  return entries;
}
