import type { Redis } from 'ioredis';

/**
 * The first connection of a Redis outbox. Commands fail at once while Redis is unreachable (no
 * offline queue); only while the connection is being made for the first time are they held back
 * (briefly, up to `timeoutMs`), so the first accepts after start-up do not fail for nothing. Once
 * Redis was reachable, a lost connection is an outage: nothing waits.
 */
export class FirstConnection {
  readonly #redis: Redis;
  readonly #timeoutMs: number;
  #everReady = false;

  constructor(redis: Redis, timeoutMs: number) {
    this.#redis = redis;
    this.#timeoutMs = timeoutMs;
    redis.on('ready', () => (this.#everReady = true));
  }

  /** The connection is being made for the first time (not: Redis was lost and is retried). */
  get pending(): boolean {
    if (this.#everReady || this.#redis.status === 'ready') return false;
    return ['wait', 'connecting', 'connect'].includes(this.#redis.status);
  }

  /** Resolves once it is ready, failed, or `timeoutMs` passed; at once unless `pending`. */
  wait(): Promise<void> {
    const redis = this.#redis;
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, this.#timeoutMs);
      redis.once('ready', done);
      redis.once('error', done);
    });
  }
}
