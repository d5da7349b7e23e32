/**
 * The fleet's one event stream on Redis Streams, key `<keyPrefix>:events`. The node that runs a
 * client publishes its events (XADD, trimmed to about `maxLen` entries); every node reads them all
 * with one blocking reader (XREAD BLOCK from the last id it saw, so it resumes after a Redis
 * restart without a gap), serves `Last-Event-ID` resume from the stream (XRANGE), and consumer
 * groups hand each event to exactly one node (webhooks). See docs/scaling.md, "One event stream".
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { WakitError } from '../errors/index.js';
import type { FleetEvent, FleetEventStream } from './cluster-view.js';
import { closeRedis, createRedis, redisUnavailable } from './redis-connection.js';
import type { FleetReport } from './fleet-report.js';
import { StreamConsumer } from './stream-consumer.js';
import { Listeners } from '../kernel/listeners.js';
import {
  entryFields,
  fleetEventsOf,
  compareStreamIds,
  isStreamId,
  readReplyEntries,
  type RawEntry,
} from './stream-entries.js';

export interface RedisEventStreamOptions {
  url: string;
  /** `cluster.keyPrefix`: the stream is `<keyPrefix>:events`. */
  keyPrefix: string;
  nodeId: string;
  logger?: Logger;
  /** A consumer's handler that failed (the SDK's error sink; logged when absent). */
  report?: FleetReport;
  /** Entries the stream keeps at least (trimmed approximately beyond): how far resume reaches. */
  maxLen?: number;
  /** A consumer-group entry unacknowledged this long (its node died) is claimed by another node. */
  claimIdleMs?: number;
  /** How long one blocking read waits before it is issued again. */
  blockMs?: number;
  /** Handlers of one `consume()` running at once on this node. */
  maxInFlight?: number;
}

export const EVENT_STREAM_DEFAULTS = {
  maxLen: 100_000,
  claimIdleMs: 30_000,
  blockMs: 5_000,
  maxInFlight: 1_000,
} as const;

/** Entries one `since()` returns at most when no limit is given. */
const SINCE_LIMIT = 10_000;
/** Entries one XREAD returns at most. */
const READ_COUNT = 500;
/** How long commands of a new stream wait for its first connection to Redis. */
const FIRST_CONNECT_MS = 2_000;

export class RedisEventStream implements FleetEventStream {
  /** The Redis key of the stream. */
  readonly key: string;
  readonly #o: Required<Omit<RedisEventStreamOptions, 'logger' | 'report'>> &
    Pick<RedisEventStreamOptions, 'logger' | 'report'>;
  /** Publishes, ranges and group commands: fails fast while Redis is away. */
  readonly #redis: Redis;
  readonly #listeners = new Listeners<[event: FleetEvent]>((error) =>
    this.#o.logger?.error({ err: error }, 'an event stream listener threw'),
  );
  readonly #consumers = new Set<StreamConsumer>();
  /** Consumers stopped by their `consume()` caller, still winding down. */
  readonly #stopping = new Set<Promise<void>>();
  #reader: Redis | undefined;
  #readLoop: Promise<void> | undefined;
  /** The id the subscription reader continues after. */
  #lastId: string | undefined;
  #positioned: Promise<void> | undefined;
  #closed = false;
  /** Ends the reader's waits on close. */
  readonly #wake = new AbortController();
  readonly #firstConnect: Promise<void>;

  constructor(options: RedisEventStreamOptions) {
    this.#o = { ...EVENT_STREAM_DEFAULTS, ...options };
    this.key = `${options.keyPrefix}:events`;
    this.#redis = createRedis({
      url: options.url,
      name: `wakit:${options.nodeId}:events`,
      logger: options.logger,
    });
    this.#firstConnect = new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#redis.off('ready', done);
        resolve();
      };
      // a fresh node waits for its first connection briefly; later outages fail at once
      const timer = setTimeout(done, FIRST_CONNECT_MS);
      timer.unref();
      this.#redis.once('ready', done);
    });
  }

  async publish(client: string, event: string, data: unknown): Promise<string> {
    if (this.#closed) throw redisUnavailable('publish an event', new Error('stream closed'));
    const fields = entryFields(client, event, new Date().toISOString(), data);
    try {
      await this.#firstConnect;
      const id = await this.#redis.xadd(this.key, 'MAXLEN', '~', this.#o.maxLen, '*', ...fields);
      if (!id) throw new Error('XADD returned no id');
      return id;
    } catch (error) {
      throw redisUnavailable('publish an event', error);
    }
  }

  subscribe(listener: (event: FleetEvent) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#readLoop && !this.#closed) this.#readLoop = this.#read();
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Resolves once the subscription reader knows where the stream ends: events published after that
   * reach every listener (resolves at once when nobody subscribed yet).
   */
  isId(id: string): boolean {
    return isStreamId(id);
  }

  compareIds(a: string, b: string): number {
    return compareStreamIds(a, b);
  }

  async ready(): Promise<void> {
    await this.#positioned;
  }

  async since(after: string, limit = SINCE_LIMIT): Promise<FleetEvent[]> {
    if (!isStreamId(after)) {
      throw new WakitError('VALIDATION_FAILED', `Not an event id: ${after.slice(0, 40)}`);
    }
    try {
      await this.#firstConnect;
      const entries = (await this.#redis.xrange(
        this.key,
        `(${after}`,
        '+',
        'COUNT',
        limit,
      )) as RawEntry[];
      return fleetEventsOf(entries);
    } catch (error) {
      throw redisUnavailable('read the event stream', error);
    }
  }

  consume(group: string, handler: (event: FleetEvent) => Promise<void>): () => void {
    if (this.#closed) return () => undefined;
    const consumer = new StreamConsumer({
      url: this.#o.url,
      key: this.key,
      group,
      consumer: this.#o.nodeId,
      control: this.#redis,
      connected: this.#firstConnect,
      handler,
      claimIdleMs: this.#o.claimIdleMs,
      blockMs: this.#o.blockMs,
      maxInFlight: this.#o.maxInFlight,
      logger: this.#o.logger,
      ...(this.#o.report ? { report: this.#o.report } : {}),
    });
    this.#consumers.add(consumer);
    return () => {
      if (!this.#consumers.delete(consumer)) return;
      const stopped = consumer.stop();
      this.#stopping.add(stopped);
      void stopped.finally(() => this.#stopping.delete(stopped));
    };
  }

  /** Stops readers and consumers (unacknowledged entries stay for other nodes) and disconnects. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake.abort();
    const consumers = [...this.#consumers];
    this.#consumers.clear();
    this.#reader?.disconnect();
    await Promise.all([...consumers.map((c) => c.stop()), ...this.#stopping, this.#readLoop]);
    this.#listeners.clear();
    await closeRedis(this.#redis);
  }

  async #read(): Promise<void> {
    const reader = createRedis({
      url: this.#o.url,
      name: `wakit:${this.#o.nodeId}:events-reader`,
      logger: this.#o.logger,
      blocking: true,
    });
    this.#reader = reader;
    let positioned!: () => void;
    this.#positioned = new Promise((resolve) => (positioned = resolve));
    let failures = 0;
    while (!this.#closed) {
      try {
        if (this.#lastId === undefined) {
          const last = (await reader.xrevrange(this.key, '+', '-', 'COUNT', 1)) as RawEntry[];
          this.#lastId = last[0]?.[0] ?? '0-0';
          positioned();
        }
        const reply: unknown = await reader.xread(
          'COUNT',
          READ_COUNT,
          'BLOCK',
          this.#o.blockMs,
          'STREAMS',
          this.key,
          this.#lastId,
        );
        failures = 0;
        const entries = readReplyEntries(reply) as RawEntry[];
        if (entries.length === 0) continue;
        this.#lastId = entries[entries.length - 1][0];
        for (const event of fleetEventsOf(entries)) this.#fanOut(event);
      } catch (error) {
        if (this.#closed) break;
        failures += 1;
        this.#o.logger?.debug(
          { err: { message: error instanceof Error ? error.message : String(error) } },
          'event stream reader: retrying',
        );
        // not reported: the abort is the wake-up (the stream closes), not a failure
        await sleep(Math.min(100 * 2 ** Math.min(failures, 5), 2_000), undefined, {
          signal: this.#wake.signal,
        }).catch(() => undefined);
      }
    }
    positioned();
    reader.disconnect();
  }

  #fanOut(event: FleetEvent): void {
    this.#listeners.emit(event);
  }
}
