import type { Redis } from 'ioredis';
import { WakitError } from '../../errors/index.js';
import { closeRedis, redisUnavailable } from '../redis-connection.js';
import type { SendPriority, TrackedSend } from '../../queue/types.js';
import {
  type AppendedNotice,
  type Appended,
  type BulkFailure,
  type ListPage,
  type ListQuery,
  type OpenEntry,
  type OutboxChange,
  type OutboxEntry,
  type OutboxStore,
  type RetentionPolicy,
  type WaitingQuery,
  type Deferral,
} from '../../queue/outbox/outbox-store.js';
import { FirstConnection } from './redis-first-connection.js';
import { RedisSchedule } from './redis-schedule.js';
import { StatusWriter } from './redis-status-writer.js';
import { listSends, pruneSends, readSends } from './redis-history.js';
import { OutboxKeys, PRIORITIES, toOpen, toTracked } from './redis-rows.js';
import { SCRIPTS, type ScriptName } from './redis-scripts.js';

export interface RedisOutboxOptions {
  /** The command connection (`createRedis`: fails fast while Redis is unreachable). */
  redis: Redis;
  /** Makes the pub/sub connection `watch` needs (on first use). */
  subscriber(): Redis;
  /** `cluster.keyPrefix`: every key is `<keyPrefix>:outbox:…`. */
  keyPrefix: string;
  /** This node's id, sent with each append notice. */
  nodeId: string;
  /** How long an idempotency key is kept after its send finished (the retention age). */
  idempotencyTtlMs: number;
  /** Reports failures of background writes (status changes), once per outage. */
  onError(error: WakitError): void;
  /** An append that Redis has not answered by then is refused (default 2 s). */
  appendTimeoutMs?: number;
}

type Call = (...args: unknown[]) => Promise<unknown>;

/**
 * The outbox of a fleet, in Redis, shared by every node: any node appends a send (one Lua script:
 * idempotency key, fleet-wide sequence number, entry, per-client-per-priority open index, listing
 * index, media, and a notice on `<keyPrefix>:outbox:appended`), the node running the client pages
 * it into its queue and records its outcome. An append resolves once Redis acknowledged it; with
 * AOF (`appendfsync everysec` or `always`) that is Redis's durability (docs/scaling.md). While
 * Redis is unreachable appends reject at once with STORAGE_UNAVAILABLE, storing nothing, and status
 * changes wait (the newest per send) and are retried until written: `committed()` waits with them.
 * A send with `sendAt` waits in its client's scheduled set until `schedule.releaseDue` (any node,
 * atomically) moves it into the open index at its time (redis-schedule.ts).
 */
export class RedisOutbox implements OutboxStore {
  readonly kind = 'redis' as const;
  readonly nodeId: string;
  readonly #redis: Redis;
  readonly #keys: OutboxKeys;
  readonly #options: RedisOutboxOptions;
  readonly #connection: FirstConnection;
  readonly #writer: StatusWriter;
  readonly #watchers = new Map<string, Set<(notice: AppendedNotice) => void>>();
  #subscriber: Redis | undefined;
  #closed = false;
  /** Scheduled sends: the clients' scheduled sets, released atomically (redis-schedule.ts). */
  readonly schedule: RedisSchedule;

  constructor(options: RedisOutboxOptions) {
    this.#options = options;
    this.#redis = options.redis;
    this.nodeId = options.nodeId;
    this.#keys = new OutboxKeys(options.keyPrefix);
    for (const [name, script] of Object.entries(SCRIPTS)) {
      if (!(name in this.#redis)) this.#redis.defineCommand(name, script);
    }
    this.#connection = new FirstConnection(this.#redis, options.appendTimeoutMs ?? 2_000);
    this.#writer = new StatusWriter({
      redis: this.#redis,
      base: this.#keys.base,
      ttlMs: this.#ttl(),
      connection: this.#connection,
      onError: (error) => options.onError(error),
    });
    this.schedule = new RedisSchedule({
      redis: this.#redis,
      keys: this.#keys,
      ttlMs: this.#ttl(),
      run: (what, call) => {
        if (!this.#closed) return this.#read(what, call);
        return Promise.reject(new WakitError('SHUTTING_DOWN', 'The outbox is closed'));
      },
    });
  }

  async append(entry: OutboxEntry): Promise<Appended> {
    if (this.#closed) throw new WakitError('SHUTTING_DOWN', 'The outbox is closed');
    const keys = this.#keys;
    const idem = entry.idempotency;
    await this.#connection.wait();
    const reply = (await this.#bounded(
      this.#call(this.#redis, 'wakitOutboxAppend')(
        keys.seq,
        keys.send(entry.id),
        idem ? keys.idem(idem.scope, idem.key) : keys.idem('', ''),
        keys.open(entry.client, entry.priority),
        keys.list,
        keys.clientList(entry.client),
        keys.media(entry.id),
        keys.scheduled(entry.client),
        entry.id,
        entry.client,
        entry.account ?? '',
        entry.chatId,
        entry.kind,
        entry.priority,
        entry.content,
        String(entry.createdAt),
        idem?.scope ?? '',
        idem?.key ?? '',
        idem?.hash ?? '',
        entry.media ?? '',
        keys.channel,
        this.nodeId,
        entry.bypassBudget ? '1' : '',
        entry.sendAt === undefined ? '' : String(entry.sendAt),
      ),
    )) as [string, string | number, string?];
    if (reply[0] === 'dup') {
      const id = String(reply[1]);
      return { id, duplicateOf: { id, hash: reply[2] ?? '' } };
    }
    return { id: entry.id, seq: Number(reply[1]) };
  }

  /** An append Redis does not answer in time is refused (a retry with its key is safe). */
  #bounded<T>(call: Promise<T>): Promise<T> {
    const ms = this.#options.appendTimeoutMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return Promise.race([call, timeout])
      .catch((error: unknown) => {
        throw redisUnavailable('journal the send (it was not accepted)', error);
      })
      .finally(() => clearTimeout(timer));
  }

  update(id: string, change: OutboxChange): void {
    this.#writer.record(id, change);
  }

  defer(id: string, deferral: Deferral): void {
    if (this.#closed) return;
    const fields = ['dueAt', String(deferral.dueAt), 'dueBudget', deferral.budget];
    this.#redis
      .hset(this.#keys.send(id), ...fields)
      .catch((error: unknown) =>
        this.#options.onError(redisUnavailable('record a deferral', error)),
      );
  }

  /** Every change recorded so far is in Redis; while Redis is down this waits for it. */
  committed(): Promise<void> {
    return this.#writer.written();
  }

  async #read<T>(what: string, read: () => Promise<T>): Promise<T> {
    await this.#connection.wait();
    await this.#writer.sync();
    try {
      return await read();
    } catch (error) {
      throw redisUnavailable(what, error);
    }
  }

  get(id: string): Promise<TrackedSend | undefined> {
    return this.#read('read the outbox', async () => {
      const [hash] = await readSends(this.#redis, this.#keys, [id]);
      return hash && toTracked(hash);
    });
  }

  list(query: ListQuery): Promise<ListPage> {
    return this.#read('list the outbox', () => listSends(this.#redis, this.#keys, query));
  }

  open(client: string): Promise<OpenEntry[]> {
    return this.#read('read the outbox', async () => {
      const ids = (
        await Promise.all(
          PRIORITIES.map((priority) =>
            this.#redis.zrange(this.#keys.open(client, priority), '0', '-1'),
          ),
        )
      ).flat();
      const entries = (await readSends(this.#redis, this.#keys, ids)).map(toOpen);
      return entries.sort((a, b) => a.seq - b.seq);
    });
  }

  openPage(query: WaitingQuery, limit: number): Promise<OpenEntry[]> {
    return this.#read('read the outbox', async () => {
      const ids = await this.#redis.zrangebyscore(
        this.#keys.open(query.client, query.priority),
        `(${query.after}`,
        '+inf',
        'LIMIT',
        0,
        limit,
      );
      return (await readSends(this.#redis, this.#keys, ids)).map(toOpen);
    });
  }

  countOpen(client: string): Promise<Record<SendPriority, number>> {
    return this.#read('read the outbox', async () => {
      const pipeline = this.#redis.pipeline();
      for (const priority of PRIORITIES) pipeline.zcard(this.#keys.open(client, priority));
      const replies = (await pipeline.exec()) ?? [];
      const counts: Record<SendPriority, number> = { reply: 0, normal: 0, bulk: 0 };
      PRIORITIES.forEach((priority, i) => {
        const [error, n] = replies[i] ?? [new Error('no reply')];
        if (error) throw error;
        counts[priority] = Number(n);
      });
      return counts;
    });
  }

  failOpen(query: WaitingQuery, failure: BulkFailure): Promise<TrackedSend[]> {
    return this.#read('fail waiting sends', async () => {
      const ids = (await this.#call(this.#redis, 'wakitOutboxFailOpen')(
        this.#keys.base,
        query.client,
        query.priority,
        String(query.after),
        String(failure.updatedAt),
        failure.error.code,
        failure.error.message,
        String(this.#ttl()),
        ...(failure.except ?? []),
      )) as string[];
      return (await readSends(this.#redis, this.#keys, ids)).map(toTracked);
    });
  }

  media(id: string): Promise<Buffer | undefined> {
    return this.#read('read media of a send', async () => {
      return (await this.#redis.getBuffer(this.#keys.media(id))) ?? undefined;
    });
  }

  prune(policy: RetentionPolicy, now: number): Promise<number> {
    const remove = async (ids: string[]): Promise<number> =>
      Number(await this.#call(this.#redis, 'wakitOutboxPrune')(this.#keys.base, ...ids));
    return this.#read('prune the outbox', () =>
      pruneSends(this.#redis, this.#keys, policy, now, remove),
    );
  }

  watch(client: string, listener: (notice: AppendedNotice) => void): () => void {
    let listeners = this.#watchers.get(client);
    if (!listeners) this.#watchers.set(client, (listeners = new Set()));
    listeners.add(listener);
    this.#subscribe();
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#watchers.delete(client);
    };
  }

  #subscribe(): void {
    if (this.#subscriber || this.#closed) return;
    const subscriber = this.#options.subscriber();
    this.#subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#keys.channel) return;
      let notice: AppendedNotice;
      try {
        const parsed = JSON.parse(message) as Omit<AppendedNotice, 'own'>;
        notice = { ...parsed, seq: Number(parsed.seq), own: parsed.nodeId === this.nodeId };
      } catch {
        return; // not reported: not a notice of ours (another writer on the channel)
      }
      for (const listener of [...(this.#watchers.get(notice.client) ?? [])]) listener(notice);
    });
    // not reported: a blocking connection; SUBSCRIBE is sent again after each reconnect
    subscriber.subscribe(this.#keys.channel).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // not reported: the writer reports its own failures (onError); closing goes on
    await this.#writer.close().catch(() => undefined);
    this.#watchers.clear();
    if (this.#subscriber) await closeRedis(this.#subscriber);
    await closeRedis(this.#redis);
  }

  /** PEXPIRE needs at least 1 ms. */
  #ttl(): number {
    return Math.max(1, this.#options.idempotencyTtlMs);
  }

  #call(target: Redis, name: ScriptName): Call {
    const command = (target as unknown as Record<ScriptName, Call>)[name];
    return (...args) => command.apply(target, args);
  }
}
