/**
 * One node's consumer in a consumer group of the fleet's event stream (`FleetEventStream.consume`):
 * XREADGROUP hands each entry to exactly one consumer of the group; the handler runs (several at
 * once, up to `maxInFlight`), and the entry is acknowledged (XACK) when its handler settles. While
 * a handler runs its entry is kept fresh (XCLAIM to itself), so only entries of a node that died,
 * idle for `claimIdleMs`, are taken over by another node (XAUTOCLAIM). A consumer that restarts
 * under the same node id first takes back its own unacknowledged entries; one that stops hands
 * its unfinished entries over at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { FleetEvent } from './cluster-view.js';
import { fleetReporter, type FleetReport } from './fleet-report.js';
import { createRedis } from './redis-connection.js';
import { fleetEventOf, readReplyEntries, type RawEntry } from './stream-entries.js';

export interface StreamConsumerOptions {
  url: string;
  key: string;
  group: string;
  /** The consumer name: the node id. */
  consumer: string;
  /** Commands that must not block (XACK, XCLAIM, XAUTOCLAIM, XGROUP): the stream's connection. */
  control: Redis;
  /** Resolves once `control` first connected (or gave up waiting). */
  connected: Promise<void>;
  handler: (event: FleetEvent) => Promise<void>;
  claimIdleMs: number;
  blockMs: number;
  maxInFlight: number;
  logger?: Logger;
  /** A handler that failed: its event is acknowledged (the SDK's error sink; logged when absent). */
  report?: FleetReport;
}

export class StreamConsumer {
  readonly #o: StreamConsumerOptions;
  readonly #reader: Redis;
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Entries settled here, not acknowledged yet (the next flush sends them; kept while Redis is away). */
  readonly #acks = new Set<string>();
  #stopped = false;
  /** Ends the loop's waits when stopping. */
  readonly #wake = new AbortController();
  readonly #loop: Promise<void>;

  readonly #report: FleetReport;

  constructor(options: StreamConsumerOptions) {
    this.#o = options;
    this.#report = fleetReporter(options.report, options.logger);
    this.#reader = createRedis({
      url: options.url,
      name: `wakit:${options.consumer}:events-${options.group}`,
      logger: options.logger,
      blocking: true,
    });
    this.#loop = this.#run();
  }

  /**
   * Stops reading. Entries whose handlers still run are not acknowledged: they are handed over
   * (marked idle for `claimIdleMs`, so the next claim pass of another node takes them at once).
   */
  async stop(): Promise<void> {
    if (this.#stopped) return this.#loop;
    this.#stopped = true;
    this.#wake.abort();
    this.#reader.disconnect();
    // after the loop: a refresh it had under way would undo the hand-over
    await this.#loop;
    // not reported: entries not handed over are claimed by another node after claimIdleMs
    await this.#handOver().catch(() => undefined);
  }

  async #handOver(): Promise<void> {
    if (this.#inFlight.size === 0) return;
    await this.#o.control.xclaim(
      this.#o.key,
      this.#o.group,
      this.#o.consumer,
      0,
      ...this.#inFlight.keys(),
      'IDLE',
      this.#o.claimIdleMs,
      'JUSTID',
    );
  }

  async #run(): Promise<void> {
    let grouped = false;
    /** Own entries left unacknowledged by an earlier life of this node id: read from here first. */
    let backlog: string | undefined = '0';
    let nextClaim = 0;
    let failures = 0;
    const period = Math.max(50, Math.floor(this.#o.claimIdleMs / 3));
    await this.#o.connected;
    while (!this.#stopped) {
      try {
        if (!grouped) {
          await this.#createGroup();
          grouped = true;
        }
        await this.#flushAcks();
        const room = this.#o.maxInFlight - this.#inFlight.size;
        if (room <= 0) {
          await Promise.race([...this.#inFlight.values(), this.#pause(period)]);
          continue;
        }
        // own leftovers first (before any claim: claimed entries join this consumer's list too)
        if (backlog === undefined && Date.now() >= nextClaim) {
          await this.#touch();
          await this.#claim();
          nextClaim = Date.now() + period;
        }
        const reply = await this.#reader.call(
          'XREADGROUP',
          'GROUP',
          this.#o.group,
          this.#o.consumer,
          'COUNT',
          room,
          ...(backlog === undefined ? ['BLOCK', Math.min(this.#o.blockMs, period)] : []),
          'STREAMS',
          this.#o.key,
          backlog ?? '>',
        );
        failures = 0;
        const entries = readReplyEntries(reply);
        if (backlog !== undefined) backlog = entries.at(-1)?.[0];
        for (const entry of entries) this.#dispatch(entry);
      } catch (error) {
        if (this.#stopped) break;
        if (error instanceof Error && error.message.startsWith('NOGROUP')) grouped = false;
        failures += 1;
        this.#o.logger?.debug(
          { err: { message: error instanceof Error ? error.message : String(error) } },
          'event stream consumer: retrying',
        );
        await this.#pause(Math.min(100 * 2 ** Math.min(failures, 5), 2_000));
      }
    }
  }

  /** Waits `ms`, or less when the consumer stops. */
  #pause(ms: number): Promise<void> {
    // not reported: the abort is the wake-up, not a failure
    return sleep(ms, undefined, { signal: this.#wake.signal }).catch(() => undefined);
  }

  async #createGroup(): Promise<void> {
    try {
      await this.#o.control.xgroup('CREATE', this.#o.key, this.#o.group, '$', 'MKSTREAM');
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error;
    }
  }

  /** Starts the handler of an entry (a deleted or foreign entry is acknowledged at once). */
  #dispatch([id, fields]: [string, string[] | null]): void {
    // running here, or settled and waiting for its acknowledgement
    if (this.#inFlight.has(id) || this.#acks.has(id)) return;
    const event = fields ? fleetEventOf([id, fields] as RawEntry) : undefined;
    if (!event) {
      this.#acks.add(id);
      return;
    }
    const run = (async () => {
      try {
        await this.#o.handler(event);
      } catch (error) {
        // the event is acknowledged all the same (a handler that keeps failing must not block)
        this.#report({
          source: 'fleet',
          event: `${this.#o.group}:${event.event}`,
          client: event.client,
          error,
        });
      }
    })().then(async () => {
      this.#inFlight.delete(id);
      if (this.#stopped) return;
      this.#acks.add(id);
      // not reported: the acks stay kept; the next flush sends them
      await this.#flushAcks().catch(() => undefined);
    });
    this.#inFlight.set(id, run);
  }

  async #flushAcks(): Promise<void> {
    if (this.#acks.size === 0) return;
    const ids = [...this.#acks];
    await this.#o.control.xack(this.#o.key, this.#o.group, ...ids);
    for (const id of ids) this.#acks.delete(id);
  }

  /**
   * Resets the idle time of the entries whose handlers run here or that wait for their
   * acknowledgement, so no other node claims them.
   */
  async #touch(): Promise<void> {
    const ids = [...this.#inFlight.keys(), ...this.#acks];
    if (ids.length === 0) return;
    await this.#o.control.xclaim(this.#o.key, this.#o.group, this.#o.consumer, 0, ...ids, 'JUSTID');
  }

  /** Takes over entries idle for `claimIdleMs` (their consumer died) and runs their handlers. */
  async #claim(): Promise<void> {
    let cursor = '0-0';
    do {
      const room = this.#o.maxInFlight - this.#inFlight.size;
      if (room <= 0) return;
      const [next, entries] = (await this.#o.control.xautoclaim(
        this.#o.key,
        this.#o.group,
        this.#o.consumer,
        this.#o.claimIdleMs,
        cursor,
        'COUNT',
        room,
      )) as [string, [string, string[] | null][]];
      for (const entry of entries) this.#dispatch(entry);
      cursor = next;
    } while (cursor !== '0-0' && !this.#stopped);
  }
}
