import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfigFile, substituteEnv, type LoadedConfig } from '../config/load.js';
import { isWakitError, issueError, type ErrorIssue } from '../errors/index.js';
import { importConfiguredPlugins } from '../plugins/loader.js';
import { parsePluginOptions, resolvePluginSet } from '../plugins/plugin-set.js';
import { loadDotEnv } from './env.js';
import type { CliIo } from './io.js';
import { packageRoot } from './paths.js';

function issueLines(issues: readonly ErrorIssue[]): string[] {
  return issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`);
}

/** The `plugins` object of a config file as written (`${VAR}`s substituted where set). */
async function pluginsAsWritten(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const json = JSON.parse(await readFile(file, 'utf8')) as { plugins?: unknown };
    let plugins = json.plugins;
    try {
      plugins = substituteEnv(plugins);
    } catch {
      // not reported: a missing variable is already a problem of the config (validation says
      // so); its text is checked as it is
    }
    return plugins && typeof plugins === 'object' && !Array.isArray(plugins)
      ? (plugins as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined; // not reported: no readable plugins object; validation reports the file
  }
}

/**
 * Loads a config file like `loadConfigFile`; when it is invalid, the problems of its plugins
 * (not loadable, options invalid) are listed in the same CONFIG_INVALID, so that every mistake is
 * reported in one round.
 */
export async function loadConfigChecked(file: string): Promise<LoadedConfig> {
  try {
    return await loadConfigFile(file);
  } catch (error) {
    if (!isWakitError(error, 'CONFIG_INVALID') || !error.issues?.length) throw error;
    const plugins = await pluginsAsWritten(file);
    if (!plugins) throw error;
    const { entries, issues } = await importConfiguredPlugins(
      plugins,
      path.dirname(path.resolve(file)),
    );
    const more = [...issues, ...entries.flatMap((entry) => parsePluginOptions(entry).issues)];
    if (more.length === 0) throw error;
    const [title = error.message] = error.message.split(':\n');
    throw issueError('CONFIG_INVALID', title, [...error.issues, ...more]);
  }
}

/**
 * `wakit config check`: validates the file, its `${ENV}` variables, and every enabled plugin
 * (loadable, options valid, dependencies present). Prints every problem; returns the exit code.
 */
export async function checkConfig(file: string, io: CliIo): Promise<number> {
  try {
    loadDotEnv(file);
    const { config, baseDir, file: absolute } = await loadConfigChecked(file);
    const { entries, issues } = await importConfiguredPlugins(config.plugins, baseDir);
    const ordered = resolvePluginSet(entries, issues);
    const names = ordered.map((p) => p.plugin.name);
    io.out(`✔ ${absolute} is valid`);
    io.out(`  clients: ${config.clients.length > 0 ? config.clients.join(', ') : '(none)'}`);
    io.out(`  engine: ${config.engine.type}, auth: ${config.auth.type}`);
    io.out(`  plugins: ${names.length > 0 ? names.join(', ') : '(none)'}`);
    return 0;
  } catch (error) {
    if (isWakitError(error)) {
      const [headline] = error.message.split('\n');
      io.err(`✖ ${headline ?? error.message}`);
      if (error.issues?.length) io.err(issueLines(error.issues).join('\n'));
      else if (error.message.includes('\n')) io.err(error.message.split('\n').slice(1).join('\n'));
      return 1;
    }
    throw error;
  }
}

/** `wakit config schema`: the JSON Schema of bot.config.json. */
export function printSchema(io: CliIo): number {
  // the committed file: it also describes the built-in plugins' options (npm run schema)
  io.out(readFileSync(path.join(packageRoot(), 'config.schema.json'), 'utf8').trimEnd());
  return 0;
}
