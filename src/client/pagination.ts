/**
 * Keyset pagination over a list the engine returns whole: items are sorted by a key (a tuple of
 * numbers and strings, unique per item), a page ends with the cursor of its last item's key, and
 * the next page starts strictly after that key. Pages stay stable while the list changes: an item
 * is never repeated, and items that move ahead of the cursor appear on a fresh first page.
 */
import { WakitError } from '../errors/index.js';

export type SortKey = ReadonlyArray<string | number>;

export interface Page<T> {
  items: T[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

export interface PageOptions {
  /** 1-500; default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

function badCursor(): WakitError {
  return new WakitError('VALIDATION_FAILED', 'cursor is not a cursor from a previous page', {
    issues: [{ path: 'cursor', message: 'must be a nextCursor from a previous page' }],
  });
}

export function decodeCursor(cursor: string, shape: ReadonlyArray<'number' | 'string'>): SortKey {
  if (cursor.length > 1_024 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (
    !Array.isArray(value) ||
    value.length !== shape.length ||
    value.some((part, i) => typeof part !== shape[i])
  ) {
    throw badCursor();
  }
  return value as SortKey;
}

/** `limit` checked (VALIDATION_FAILED outside 1-500), default 50. */
export function pageLimit(limit: unknown, field = 'limit'): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `${field} must be an integer from 1 to ${MAX_PAGE_SIZE}`,
      {
        issues: [{ path: field, message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` }],
      },
    );
  }
  return limit;
}

/** One page of `items` sorted by `keyOf` (ascending), after `options.cursor`. */
export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => SortKey,
  shape: ReadonlyArray<'number' | 'string'>,
  options: PageOptions = {},
): Page<T> {
  const limit = pageLimit(options.limit);
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, shape);
  const sorted = items
    .map((item) => ({ item, key: keyOf(item) }))
    .sort((a, b) => compareKeys(a.key, b.key));
  const start = after ? sorted.findIndex((entry) => compareKeys(entry.key, after) > 0) : 0;
  const rest = start < 0 ? [] : sorted.slice(start);
  const page = rest.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((entry) => entry.item),
    nextCursor: rest.length > limit && last ? encodeCursor(last.key) : null,
  };
}
