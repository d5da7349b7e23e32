import type { Redis } from 'ioredis';
import {
  cursorSeq,
  pageOf,
  type ListPage,
  type ListQuery,
  type RetentionPolicy,
} from '../../queue/outbox/outbox-store.js';
import { isPresent, toTracked, type OutboxKeys, type SendHash } from './redis-rows.js';

/** Sends read per round trip while listing; finished ones removed per prune script. */
const LIST_BATCH = 200;
const PRUNE_BATCH = 500;

/** HGETALL of several sends in one round trip (missing ones are left out). */
export async function readSends(
  redis: Redis,
  keys: OutboxKeys,
  ids: readonly string[],
): Promise<SendHash[]> {
  if (ids.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hgetall(keys.send(id));
  const replies = (await pipeline.exec()) ?? [];
  const hashes: SendHash[] = [];
  for (const [error, hash] of replies) {
    if (error) throw error;
    if (isPresent(hash as SendHash)) hashes.push(hash as SendHash);
  }
  return hashes;
}

/**
 * The Redis outbox's history: tracked sends newest first, walked down the listing index (the
 * client's own when one client is asked for) in batches, filtered by status and time; the cursor
 * is a sequence number, as for the other stores.
 */
export async function listSends(
  redis: Redis,
  keys: OutboxKeys,
  query: ListQuery,
): Promise<ListPage> {
  if (query.clients?.length === 0) return { items: [] };
  const clients = query.clients && new Set(query.clients);
  const index = query.clients?.length === 1 ? keys.clientList(query.clients[0]) : keys.list;
  let before = query.cursor ? `(${cursorSeq(query.cursor)}` : '+inf';
  const rows: SendHash[] = [];
  for (;;) {
    const flat = await redis.zrevrangebyscore(
      index,
      before,
      '-inf',
      'WITHSCORES',
      'LIMIT',
      0,
      LIST_BATCH,
    );
    const ids = flat.filter((_, i) => i % 2 === 0);
    for (const hash of await readSends(redis, keys, ids)) {
      if (clients && !clients.has(hash.client)) continue;
      if (query.status && hash.status !== query.status) continue;
      if (query.since !== undefined && Number(hash.createdAt) < query.since) continue;
      rows.push(hash);
    }
    if (rows.length > query.limit || ids.length < LIST_BATCH) break;
    before = `(${flat.at(-1)!}`;
  }
  return pageOf(rows, query.limit, (hash) => Number(hash.seq), toTracked);
}

/**
 * Removes finished sends whose last change is older than the policy's age, then the oldest
 * finished ones beyond its count (oldest by last change), in batches so Redis is never held long.
 */
export async function pruneSends(
  redis: Redis,
  keys: OutboxKeys,
  policy: RetentionPolicy,
  now: number,
  remove: (ids: string[]) => Promise<number>,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const old = await redis.zrangebyscore(
      keys.done,
      '-inf',
      `(${now - policy.maxAgeMs}`,
      'LIMIT',
      0,
      PRUNE_BATCH,
    );
    if (old.length === 0) break;
    removed += await remove(old);
    if (old.length < PRUNE_BATCH) break;
  }
  for (;;) {
    const excess = (await redis.zcard(keys.done)) - policy.maxCount;
    if (excess <= 0) break;
    const oldest = await redis.zrange(keys.done, '0', String(Math.min(excess, PRUNE_BATCH) - 1));
    if (oldest.length === 0) break;
    removed += await remove(oldest);
  }
  return removed;
}
