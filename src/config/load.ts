import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { WakitError, issueError, type ErrorIssue } from '../errors/index.js';
import type { WakitConfig } from './schema.js';
import { jsonErrorLocation } from './friendly.js';
import { parseConfig } from './validate.js';

const ENV_PATTERN = /\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${VAR}` in every string of a JSON value with the environment variable; `$${VAR}` is a
 * literal `${VAR}`. Every missing variable is reported at once, naming it and where it is used.
 */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv = process.env): unknown {
  const issues: ErrorIssue[] = [];
  const walk = (v: unknown, at: string[]): unknown => {
    if (typeof v === 'string') {
      return v.replace(ENV_PATTERN, (match, name: string) => {
        if (match.startsWith('$$')) return match.slice(1);
        const found = env[name];
        if (found === undefined) {
          issues.push({
            path: at.join('.'),
            message: `environment variable ${name} is not set (export it, or put ${name}=… in .env beside the config file)`,
          });
        }
        return found ?? '';
      });
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...at, String(i)]));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...at, k])]));
    }
    return v;
  };
  const out = walk(value, []);
  if (issues.length > 0) {
    throw issueError('CONFIG_INVALID', 'Environment variables are missing', issues);
  }
  return out;
}

/** The variables of `.env` beside a config file (none when there is no such file). */
export function readDotEnv(configFile: string): NodeJS.Dict<string> {
  const file = path.join(path.dirname(path.resolve(configFile)), '.env');
  return existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
}

export interface LoadedConfig {
  config: Readonly<WakitConfig>;
  /** Absolute path of the file. */
  file: string;
  /** Directory of the file: relative paths in the config (dataPath, plugin paths) are resolved from it. */
  baseDir: string;
}

/** Reads a JSON config file, substitutes `${ENV}` variables and validates it. */
export async function loadConfigFile(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LoadedConfig> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new WakitError(
      'CONFIG_INVALID',
      `Cannot read config file ${absolute}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (?:\.\.\.)?"[\s\S]*" is not valid JSON$/, '');
    const { line, column } = jsonErrorLocation(text, (error as Error).message);
    throw new WakitError(
      'CONFIG_INVALID',
      `Config file ${absolute} is not valid JSON: line ${line}, column ${column}: ${reason}` +
        ' (JSON has no comments or trailing commas, and keys need double quotes)',
      { details: { file: absolute, line, column }, cause: error },
    );
  }
  const config = parseConfig(substituteEnv(json, env), `config file ${absolute}`);
  return { config, file: absolute, baseDir: path.dirname(absolute) };
}
