import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { WakitError } from '../../../errors/index.js';
import { CAPABILITIES } from '../../health.js';
import type { LoadedFix } from './compat-layer.js';

const pageFunction = z.union([
  z.string().min(1),
  z.custom<() => unknown>((value) => typeof value === 'function', 'a function or its source'),
]);

/** An operator's fix: the shape of the built-in ones, with defaults for the descriptive fields. */
const extraFixSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'kebab-case, up to 64 characters'),
  summary: z.string().default(''),
  upstream: z
    .union([z.string(), z.array(z.string())])
    .default([])
    .transform((value) => (typeof value === 'string' ? [value] : value)),
  dropWhen: z.string().default(''),
  phase: z.enum(['injected', 'ready']).default('ready'),
  covers: z.array(z.enum(CAPABILITIES)).default([]),
  probe: pageFunction,
  fix: pageFunction,
});

/**
 * Loads the operator's fixes (`engine.compat.extra`): each file (relative to `baseDir`) exports,
 * as default or as named exports, `{ id, probe, fix }` and optionally `summary`, `upstream`,
 * `dropWhen`, `phase` (`ready` by default) and `covers`. A file that cannot be loaded, has the
 * wrong shape or reuses an id is CONFIG_INVALID, naming the file.
 */
export async function loadExtraFixes(
  files: readonly string[],
  baseDir: string,
  taken: ReadonlySet<string>,
): Promise<LoadedFix[]> {
  const ids = new Set(taken);
  const fixes: LoadedFix[] = [];
  for (const file of files) {
    const absolute = path.resolve(baseDir, file);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    } catch (cause) {
      throw invalid(file, `could not be loaded (${(cause as Error).message})`, cause);
    }
    const spec = module.default ?? module;
    const parsed = extraFixSchema.safeParse(spec);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (i) => `${i.path.join('.') || '(root)'}: ${i.message}`,
      );
      throw invalid(file, `is not a compat fix: ${problems.join('; ')}`);
    }
    if (ids.has(parsed.data.id)) throw invalid(file, `reuses the fix id "${parsed.data.id}"`);
    ids.add(parsed.data.id);
    fixes.push({ ...parsed.data, source: file });
  }
  return fixes;
}

function invalid(file: string, why: string, cause?: unknown): WakitError {
  return new WakitError('CONFIG_INVALID', `engine.compat.extra: ${file} ${why}`, {
    details: { path: 'engine.compat.extra', file },
    ...(cause ? { cause } : {}),
  });
}
