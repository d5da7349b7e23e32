import type { Redis } from 'ioredis';
import type { OpenEntry, ScheduleStore } from '../../queue/outbox/outbox-store.js';
import type { TrackedSend } from '../../queue/types.js';
import { isPresent, toOpen, toTracked, type OutboxKeys, type SendHash } from './redis-rows.js';
import type { SCHEDULE_SCRIPTS } from './redis-schedule-scripts.js';

type ScheduleScript = keyof typeof SCHEDULE_SCRIPTS;

export interface RedisScheduleDeps {
  redis: Redis;
  keys: OutboxKeys;
  /** The idempotency key's expiry from a send's finish (a cancel finishes it). */
  ttlMs: number;
  /**
   * Runs a Redis call as the outbox's reads do: after the first connection and the status changes
   * recorded so far; a failure is STORAGE_UNAVAILABLE, a closed outbox SHUTTING_DOWN.
   */
  run<T>(what: string, call: () => Promise<T>): Promise<T>;
}

/**
 * The Redis outbox's scheduled sends (docs/scheduling.md): each client's scheduled set
 * `<p>:scheduled:<client>` (by sendAt) and one Lua script per change (redis-schedule-scripts.ts),
 * guarded by `status = scheduled`, so two nodes never release one send twice, and a cancel or a
 * reschedule racing the release either takes effect (the send never went) or finds it gone.
 */
export class RedisSchedule implements ScheduleStore {
  readonly #d: RedisScheduleDeps;

  constructor(deps: RedisScheduleDeps) {
    this.#d = deps;
  }

  nextDue(client: string): Promise<number | undefined> {
    const { redis, keys } = this.#d;
    return this.#d.run('read the scheduled sends', async () => {
      const [, score] = await redis.zrange(keys.scheduled(client), '0', '0', 'WITHSCORES');
      return score === undefined ? undefined : Number(score);
    });
  }

  releaseDue(client: string, now: number, limit: number): Promise<OpenEntry[]> {
    return this.#d.run('release scheduled sends', async () => {
      const rows = (await this.#script('wakitOutboxReleaseDue')(
        this.#d.keys.base,
        client,
        String(now),
        String(Math.max(0, Math.floor(limit))),
      )) as string[][];
      return rows.map((flat) => toOpen(hashOf(flat)));
    });
  }

  cancel(id: string, now: number): Promise<TrackedSend | undefined> {
    return this.#d.run('cancel a scheduled send', async () =>
      recordOf(
        (await this.#script('wakitOutboxCancel')(
          this.#d.keys.base,
          id,
          String(now),
          String(this.#d.ttlMs),
        )) as string[],
      ),
    );
  }

  reschedule(id: string, sendAt: number, now: number): Promise<TrackedSend | undefined> {
    return this.#d.run('reschedule a send', async () =>
      recordOf(
        (await this.#script('wakitOutboxReschedule')(
          this.#d.keys.base,
          id,
          String(sendAt),
          String(now),
        )) as string[],
      ),
    );
  }

  #script(name: ScheduleScript): (...args: string[]) => Promise<unknown> {
    const redis = this.#d.redis;
    const command = (redis as unknown as Record<ScheduleScript, (...a: string[]) => unknown>)[name];
    return (...args) => Promise.resolve(command.apply(redis, args));
  }
}

/** HGETALL's flat reply inside a script (`[field, value, ...]`) as a hash. */
function hashOf(flat: readonly string[]): SendHash {
  const hash: SendHash = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i]] = flat[i + 1];
  return hash;
}

function recordOf(flat: readonly string[]): TrackedSend | undefined {
  const hash = hashOf(flat);
  return isPresent(hash) ? toTracked(hash) : undefined;
}
