/**
 * The schedule store of a fleet: each firing of a recurring job is claimed with `SET <key> NX PX`
 * on (job, firing time), `<prefix>:schedule:<job>:<firing ms>`, so the first node to claim it runs
 * it and the others skip it. While a node runs a job, `<prefix>:schedule-running:<job>` (renewed by
 * the node, lapsing after `holdMs` if it dies) makes the others skip the job's next firings too.
 * Last runs are a hash, `<prefix>:schedule-runs` (job → firing ms), only ever moved forward; when
 * each job was first seen, `<prefix>:schedule-since`.
 */
import type { Redis } from 'ioredis';
import type { ScheduleStore } from '../plugins/schedule-types.js';
import { redisUnavailable } from './redis-connection.js';

const CLAIM = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return 1`;

const SINCE = `
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HGET', KEYS[1], ARGV[1])`;

const RECORD = `
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if tonumber(ARGV[2]) > current then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 1`;

const FINISH = `
if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
${RECORD}`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

export interface RedisScheduleStoreOptions {
  redis: Redis;
  keyPrefix: string;
  nodeId: string;
}

export class RedisScheduleStore implements ScheduleStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #nodeId: string;

  constructor(options: RedisScheduleStoreOptions) {
    this.#redis = options.redis;
    this.#prefix = options.keyPrefix;
    this.#nodeId = options.nodeId;
  }

  async claim(job: string, firingAt: number, claimMs: number, holdMs: number): Promise<boolean> {
    const firing = `${this.#prefix}:schedule:${job}:${firingAt}`;
    const claimed = await this.#eval(
      'claim a firing',
      CLAIM,
      [firing, this.#running(job)],
      [this.#nodeId, Math.ceil(claimMs), Math.ceil(holdMs)],
    );
    return claimed === 1;
  }

  async finish(job: string, firingAt: number): Promise<void> {
    await this.#eval(
      'record a run',
      FINISH,
      [this.#runs(), this.#running(job)],
      [job, firingAt, this.#nodeId],
    );
  }

  async renew(job: string, holdMs: number): Promise<void> {
    await this.#eval(
      'renew a running job',
      RENEW,
      [this.#running(job)],
      [this.#nodeId, Math.ceil(holdMs)],
    );
  }

  async lastRun(job: string): Promise<number | undefined> {
    let raw: string | null;
    try {
      raw = await this.#redis.hget(this.#runs(), job);
    } catch (error) {
      throw redisUnavailable('read the last run of a job', error);
    }
    return raw === null ? undefined : Number(raw);
  }

  async since(job: string, at: number): Promise<number> {
    const since = await this.#eval(
      'record when a job was first seen',
      SINCE,
      [this.#since()],
      [job, at],
    );
    return Number(since);
  }

  #runs(): string {
    return `${this.#prefix}:schedule-runs`;
  }

  #since(): string {
    return `${this.#prefix}:schedule-since`;
  }

  #running(job: string): string {
    return `${this.#prefix}:schedule-running:${job}`;
  }

  async #eval(
    action: string,
    script: string,
    keys: string[],
    args: (string | number)[],
  ): Promise<unknown> {
    try {
      return await this.#redis.eval(script, keys.length, ...keys, ...args);
    } catch (error) {
      throw redisUnavailable(action, error);
    }
  }
}
