/**
 * Conversations and chat state on Redis (a fleet): every node reads and writes the same journals,
 * so a client's conversations go on wherever the client runs. Each write is one Lua script
 * (redis-conversation-scripts.ts): a state write is a compare-and-set on its version, a step is
 * appended at its index exactly once together with the wait, a chat member has one active
 * conversation (SET NX). Expiry of chat state is checked against the SDK's clock on every read
 * (as SQLite does) and Redis drops the value itself after its time-to-live.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClusterConfig } from '../../config/schema.js';
import type {
  ConversationRecord,
  ConversationStore,
  ConversationWait,
  StateRecord,
  Step,
} from '../../conversations/store/conversation-store.js';
import { nodeIdOf } from '../node-id.js';
import { closeRedis, createRedis, redisUnavailable } from '../redis-connection.js';
import {
  APPEND_LUA,
  BEGIN_LUA,
  END_LUA,
  PUT_STATE_LUA,
  SET_WAIT_LUA,
} from './redis-conversation-scripts.js';

type Script = (this: Redis, ...args: string[]) => Promise<number>;
type Scripted = Redis & Record<(typeof SCRIPTS)[number][0], Script>;
const SCRIPTS = [
  ['wakitConvPutState', PUT_STATE_LUA],
  ['wakitConvBegin', BEGIN_LUA],
  ['wakitConvAppend', APPEND_LUA],
  ['wakitConvSetWait', SET_WAIT_LUA],
  ['wakitConvEnd', END_LUA],
] as const;

/** The fixed part of a record, stored as JSON. */
type Head = Omit<ConversationRecord, 'updatedAt' | 'steps' | 'wait'>;

const waitArgs = (wait: ConversationWait): [string, string, string] => [
  JSON.stringify(wait),
  wait.waiting ? '1' : '0',
  wait.dueAt === undefined ? '' : String(wait.dueAt),
];

export class RedisConversationStore implements ConversationStore {
  readonly kind = 'redis' as const;
  readonly #redis: Scripted;
  readonly #p: string;
  readonly #now: () => number;
  readonly #onClose: () => Promise<void>;

  constructor(options: {
    redis: Redis;
    keyPrefix?: string;
    now?: () => number;
    /** Closes the connection when the store owns it. */
    onClose?: () => Promise<void>;
  }) {
    const redis = options.redis;
    for (const [name, lua] of SCRIPTS) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: 0, lua });
    }
    this.#redis = redis as Scripted;
    this.#p = `${options.keyPrefix ?? 'wakit'}:conv:`;
    this.#now = options.now ?? Date.now;
    this.#onClose = options.onClose ?? (() => Promise.resolve());
  }

  async getState(key: string): Promise<StateRecord | undefined> {
    const hash = await this.#do('read chat state', () => this.#redis.hgetall(`${this.#p}s:${key}`));
    return this.#state(hash);
  }

  async putState(
    key: string,
    value: unknown,
    expectedVersion: number,
    expiresAt?: number,
  ): Promise<number | undefined> {
    const now = this.#now();
    const ttl = expiresAt === undefined ? '' : String(Math.max(1, expiresAt - now));
    const version = await this.#do('write chat state', () =>
      this.#redis.wakitConvPutState(
        this.#p,
        key,
        JSON.stringify(value),
        String(expectedVersion),
        expiresAt === undefined ? '' : String(expiresAt),
        String(now),
        ttl,
      ),
    );
    return version > 0 ? version : undefined;
  }

  async deleteState(key: string): Promise<boolean> {
    const [[, deleted]] = (await this.#do('erase chat state', () =>
      this.#redis.multi().del(`${this.#p}s:${key}`).zrem(`${this.#p}sidx`, key).exec(),
    )) as [[unknown, number]];
    return deleted > 0;
  }

  async listStates(prefix: string): Promise<{ key: string; record: StateRecord }[]> {
    const high = Buffer.concat([Buffer.from(`[${prefix}`), Buffer.from([0xff])]);
    const keys = await this.#do('list chat state', () =>
      this.#redis.zrangebylex(`${this.#p}sidx`, `[${prefix}`, high),
    );
    const hashes = await this.#all('read chat state', keys, (pipe, key) =>
      pipe.hgetall(`${this.#p}s:${key}`),
    );
    const found: { key: string; record: StateRecord }[] = [];
    keys.forEach((key, i) => {
      const record = this.#state(hashes[i] as Record<string, string>);
      if (record) found.push({ key, record });
    });
    return found;
  }

  async begin(record: ConversationRecord): Promise<boolean> {
    const head: Head = {
      id: record.id,
      client: record.client,
      chatId: record.chatId,
      member: record.member,
      name: record.name,
      version: record.version,
      startedAt: record.startedAt,
      ...(record.input !== undefined ? { input: record.input } : {}),
    };
    const done = await this.#do('start a conversation', () =>
      this.#redis.wakitConvBegin(
        this.#p,
        record.id,
        record.client,
        memberKey(record.client, record.chatId, record.member),
        JSON.stringify(head),
        String(record.startedAt),
        String(record.updatedAt),
        ...waitArgs(record.wait),
      ),
    );
    return done === 1;
  }

  async active(
    client: string,
    chatId: string,
    member: string,
  ): Promise<ConversationRecord | undefined> {
    const id = await this.#do('read a conversation', () =>
      this.#redis.get(`${this.#p}a:${memberKey(client, chatId, member)}`),
    );
    return id === null ? undefined : this.get(id);
  }

  async get(id: string): Promise<ConversationRecord | undefined> {
    const hash = await this.#do('read a conversation', () =>
      this.#redis.hgetall(`${this.#p}r:${id}`),
    );
    return toRecord(hash);
  }

  async append(id: string, index: number, step: Step, wait: ConversationWait): Promise<boolean> {
    const done = await this.#do('journal a step', () =>
      this.#redis.wakitConvAppend(
        this.#p,
        id,
        String(index),
        JSON.stringify(step),
        ...waitArgs(wait),
        String(this.#now()),
      ),
    );
    return done === 1;
  }

  async setWait(id: string, wait: ConversationWait): Promise<void> {
    await this.#do('journal a wait', () =>
      this.#redis.wakitConvSetWait(this.#p, id, ...waitArgs(wait)),
    );
  }

  async steps(id: string): Promise<Step[]> {
    const steps = await this.#do('read a journal', () =>
      this.#redis.lrange(`${this.#p}j:${id}`, 0, -1),
    );
    return steps.map((step) => JSON.parse(step) as Step);
  }

  async end(id: string): Promise<boolean> {
    return (
      (await this.#do('end a conversation', () => this.#redis.wakitConvEnd(this.#p, id))) === 1
    );
  }

  async list(client?: string): Promise<ConversationRecord[]> {
    return this.#records(client === undefined ? 'l' : `l:${client}`);
  }

  async interrupted(client: string): Promise<ConversationRecord[]> {
    return this.#records(`i:${client}`);
  }

  async timers(client?: string): Promise<{ id: string; client: string; dueAt: number }[]> {
    const flat = await this.#do('read timers', () =>
      this.#redis.zrange(
        `${this.#p}${client === undefined ? 't' : `t:${client}`}`,
        '0',
        '-1',
        'WITHSCORES',
      ),
    );
    const due: { id: string; dueAt: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) due.push({ id: flat[i], dueAt: Number(flat[i + 1]) });
    const clients =
      client === undefined
        ? await this.#all('read timers', due, (pipe, { id }) =>
            pipe.hget(`${this.#p}r:${id}`, 'client'),
          )
        : due.map(() => client);
    return due.flatMap(({ id, dueAt }, i) => {
      const owner = clients[i];
      return typeof owner === 'string' ? [{ id, client: owner, dueAt }] : [];
    });
  }

  async close(): Promise<void> {
    await this.#onClose();
  }

  async #records(index: string): Promise<ConversationRecord[]> {
    const ids = await this.#do('list conversations', () =>
      this.#redis.zrange(`${this.#p}${index}`, '0', '-1'),
    );
    const hashes = await this.#all('list conversations', ids, (pipe, id) =>
      pipe.hgetall(`${this.#p}r:${id}`),
    );
    return hashes.flatMap((hash) => toRecord(hash as Record<string, string>) ?? []);
  }

  #state(hash: Record<string, string>): StateRecord | undefined {
    if (hash.ver === undefined) return undefined;
    const expiresAt = hash.exp === undefined ? undefined : Number(hash.exp);
    if (expiresAt !== undefined && expiresAt <= this.#now()) return undefined;
    return {
      value: JSON.parse(hash.v) as unknown,
      version: Number(hash.ver),
      updatedAt: Number(hash.at),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
  }

  /** One command per item in one round trip; each result (a failed one throws). */
  async #all<T>(
    action: string,
    items: readonly T[],
    add: (pipe: ReturnType<Redis['pipeline']>, item: T) => unknown,
  ): Promise<unknown[]> {
    if (items.length === 0) return [];
    const results = await this.#do(action, () => {
      const pipe = this.#redis.pipeline();
      for (const item of items) add(pipe, item);
      return pipe.exec();
    });
    return (results ?? []).map(([error, value]) => {
      if (error) throw redisUnavailable(action, error);
      return value;
    });
  }

  async #do<T>(action: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      throw redisUnavailable(action, error);
    }
  }
}

function memberKey(client: string, chatId: string, member: string): string {
  return `${client}\n${chatId}\n${member}`;
}

function toRecord(hash: Record<string, string>): ConversationRecord | undefined {
  if (hash.head === undefined) return undefined;
  const head = JSON.parse(hash.head) as Head;
  return {
    ...head,
    updatedAt: Number(hash.at),
    steps: Number(hash.steps),
    wait: hash.wait === undefined ? {} : (JSON.parse(hash.wait) as ConversationWait),
  };
}

/**
 * The store of this node of the fleet, on a connection of its own; resolves once Redis answers
 * (or after `readyMs`: its calls then fail with STORAGE_UNAVAILABLE until Redis is back).
 */
export async function createRedisConversationStore(
  cluster: ClusterConfig,
  now: () => number,
  logger?: Logger,
  readyMs = 10_000,
): Promise<RedisConversationStore> {
  const redis = createRedis({
    url: cluster.url,
    name: `wakit:${nodeIdOf(cluster)}:conversations`,
    ...(logger ? { logger } : {}),
  });
  if (redis.status !== 'ready') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, readyMs);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return new RedisConversationStore({
    redis,
    keyPrefix: cluster.keyPrefix,
    now,
    onClose: () => closeRedis(redis),
  });
}
