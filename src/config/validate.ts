import type { z } from 'zod';
import { WakitError, type ErrorIssue } from '../errors/index.js';
import { configSchema, type WakitConfig } from './schema.js';

/** Turns zod issues into our `{ path, message }` list (every problem, at once). */
export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join('.'),
    message: issue.message,
  }));
}

/** Recursively freezes plain objects and arrays. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Validates a configuration object, fills defaults and returns it frozen; CONFIG_INVALID otherwise. */
export function parseConfig(input: unknown, source = 'configuration'): Readonly<WakitConfig> {
  const result = configSchema.safeParse(input);
  if (!result.success) {
    const issues = zodIssues(result.error);
    const list = issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n');
    throw new WakitError('CONFIG_INVALID', `The ${source} is invalid:\n${list}`, { issues });
  }
  return deepFreeze(result.data);
}
