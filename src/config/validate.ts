import { issueError } from '../errors/index.js';
import { withDataDirDefault } from './data-dir.js';
import { friendlyIssues } from './friendly.js';
import { configSchema, type WakitConfig } from './schema.js';

/** Recursively freezes plain objects and arrays. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validates a configuration object, fills defaults and returns it frozen; CONFIG_INVALID otherwise,
 * listing every problem in plain words with its path and "did you mean" for misspelt keys/values.
 * `auth.dataPath` left out defaults to a directory under `WAKIT_DATA` when that is set.
 */
export function parseConfig(input: unknown, source = 'configuration'): Readonly<WakitConfig> {
  const result = configSchema.safeParse(withDataDirDefault(input));
  if (!result.success) {
    throw issueError(
      'CONFIG_INVALID',
      `The ${source} is invalid`,
      friendlyIssues(result.error, configSchema, input),
    );
  }
  return deepFreeze(result.data);
}
