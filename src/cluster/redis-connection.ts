/**
 * Redis connections of a fleet node (ioredis). Commands fail fast while Redis is unreachable (no
 * offline queue, one try per command), so an accept answers STORAGE_UNAVAILABLE at once instead
 * of hanging; the connection itself keeps reconnecting with capped backoff and every user finds
 * Redis again when it is back. Errors are logged once per outage, never with the URL's password.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { WakitError } from '../errors/index.js';

export interface RedisOptions {
  url: string;
  /** Shown in Redis `CLIENT LIST` and in logs: `wakit:<node>:<role>`. */
  name: string;
  logger?: Logger;
  /** A blocking reader (XREAD BLOCK, SUBSCRIBE) keeps its commands while reconnecting. */
  blocking?: boolean;
}

/** The URL without its password, for logs and errors. */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://(invalid URL)'; // not reported: a redaction for a log line
  }
}

export function createRedis(options: RedisOptions): Redis {
  const redis = new Redis(options.url, {
    connectionName: options.name.replace(/[^A-Za-z0-9_.:-]/g, '_'),
    lazyConnect: false,
    enableOfflineQueue: options.blocking === true,
    maxRetriesPerRequest: options.blocking ? null : 0,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2_000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    options.logger?.warn(
      { err: { message: error.message }, redis: redactedRedisUrl(options.url), role: options.name },
      'redis unreachable; retrying',
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    options.logger?.info({ role: options.name }, 'redis reachable again');
  });
  return redis;
}

/** A Redis failure as the coded error of the fleet's storage (STORAGE_UNAVAILABLE, 503). */
export function redisUnavailable(action: string, cause: unknown): WakitError {
  if (cause instanceof WakitError) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new WakitError('STORAGE_UNAVAILABLE', `Redis could not ${action}: ${reason}`, { cause });
}

/** Closes a connection without waiting for a server that may be gone. */
export async function closeRedis(redis: Redis): Promise<void> {
  try {
    if (redis.status === 'ready') await redis.quit();
    else redis.disconnect();
  } catch {
    redis.disconnect();
  }
}
