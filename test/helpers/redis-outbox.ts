/** A Redis outbox on a test redis-server, as the fleet (src/cluster) builds it. */
import { createRedis } from '../../src/cluster/redis-connection.js';
import type { WakitError } from '../../src/errors/index.js';
import { RedisOutbox } from '../../src/cluster/outbox/redis-outbox.js';

export function redisOutbox(
  url: string,
  keyPrefix: string,
  options: { nodeId?: string; onError?: (error: WakitError) => void; ttlMs?: number } = {},
): RedisOutbox {
  const nodeId = options.nodeId ?? 'node-test';
  return new RedisOutbox({
    redis: createRedis({ url, name: `wakit:${nodeId}:outbox` }),
    subscriber: () => createRedis({ url, name: `wakit:${nodeId}:watch`, blocking: true }),
    keyPrefix,
    nodeId,
    idempotencyTtlMs: options.ttlMs ?? 7 * 24 * 3600_000,
    onError: options.onError ?? (() => undefined),
  });
}
