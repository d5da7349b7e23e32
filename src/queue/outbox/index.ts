import path from 'node:path';
import type { Logger } from 'pino';
import type { WakitConfig } from '../../config/schema.js';
import type { WakitError } from '../../errors/index.js';
import { createRedis } from '../../cluster/redis-connection.js';
import { nodeIdOf } from '../../cluster/node-id.js';
import { MemoryOutbox } from './memory-outbox.js';
import { RedisOutbox } from './redis-outbox.js';
import type { OutboxStore } from './outbox-store.js';
import { SqliteOutbox } from './sqlite-outbox.js';

export * from './outbox-store.js';
export { decodeContent, encodeContent } from './content-codec.js';
export { journalChange } from './journal.js';

/**
 * The outbox the configuration asks for: in a fleet (`cluster`), the Redis outbox every node
 * shares; else as the `queue` section says, SQLite under the data directory or memory.
 */
export function createOutboxStore(
  config: Readonly<WakitConfig>,
  baseDir: string,
  onError: (error: WakitError) => void,
  logger?: Logger,
): OutboxStore {
  const queue = config.queue;
  const cluster = config.cluster;
  if (cluster) {
    const nodeId = nodeIdOf(cluster);
    const connect = (role: string, blocking = false) =>
      createRedis({
        url: cluster.url,
        name: `wakit:${nodeId}:${role}`,
        blocking,
        ...(logger ? { logger } : {}),
      });
    return new RedisOutbox({
      redis: connect('outbox'),
      subscriber: () => connect('outbox-watch', true),
      keyPrefix: cluster.keyPrefix,
      nodeId,
      idempotencyTtlMs: queue.retention.maxAgeMs,
      onError,
    });
  }
  if (queue.persistence === 'memory') return new MemoryOutbox();
  const file = path.resolve(
    baseDir,
    queue.outboxPath ?? path.join(config.auth.dataPath, 'outbox.db'),
  );
  return new SqliteOutbox({ file, durability: queue.durability, onError });
}
