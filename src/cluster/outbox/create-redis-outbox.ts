import type { Logger } from 'pino';
import type { ClusterConfig, WakitConfig } from '../../config/schema.js';
import type { WakitError } from '../../errors/index.js';
import { nodeIdOf } from '../node-id.js';
import { createRedis } from '../redis-connection.js';
import { RedisOutbox } from './redis-outbox.js';

/** The outbox every node of the fleet shares (Redis), for this node. */
export function createRedisOutbox(
  config: Readonly<WakitConfig> & { cluster: ClusterConfig },
  onError: (error: WakitError) => void,
  logger?: Logger,
): RedisOutbox {
  const cluster = config.cluster;
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
    idempotencyTtlMs: config.queue.retention.maxAgeMs,
    onError,
  });
}
