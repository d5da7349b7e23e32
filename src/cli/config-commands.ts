import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfigFile } from '../config/load.js';
import { isWakitError, type ErrorIssue } from '../errors/index.js';
import { importConfiguredPlugins } from '../plugins/loader.js';
import { resolvePluginSet } from '../plugins/plugin-set.js';
import { loadDotEnv } from './env.js';
import type { CliIo } from './io.js';
import { packageRoot } from './paths.js';

function issueLines(issues: readonly ErrorIssue[]): string[] {
  return issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`);
}

/**
 * `wakit config check`: validates the file, its `${ENV}` variables, and every enabled plugin
 * (loadable, options valid, dependencies present). Prints every problem; returns the exit code.
 */
export async function checkConfig(file: string, io: CliIo): Promise<number> {
  try {
    loadDotEnv(file);
    const { config, baseDir, file: absolute } = await loadConfigFile(file);
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
