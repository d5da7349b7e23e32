import type { Redis } from 'ioredis';
import type { WakitError } from '../../errors/index.js';
import { redisUnavailable } from '../redis-connection.js';
import { FINISHED, type OutboxChange } from '../../queue/outbox/outbox-store.js';
import { PendingChanges } from './redis-changes.js';
import type { FirstConnection } from './redis-first-connection.js';
import { changeArgs } from './redis-rows.js';

/** Between two attempts to write status changes while Redis is unreachable. */
const RETRY_MS = 250;

export interface StatusWriterOptions {
  redis: Redis;
  /** `<keyPrefix>:outbox`, for the update script. */
  base: string;
  /** The idempotency key's expiry from a send's finish (ms, at least 1). */
  ttlMs: number;
  connection: FirstConnection;
  /** A failed write, once per outage; a script error, each time. */
  onError(error: WakitError): void;
}

type Update = (...args: string[]) => Promise<unknown>;

/**
 * Writes the Redis outbox's status changes: the changes recorded in one tick go in one MULTI (the
 * update script once per send: status, outcome, out of the open index when finished). While Redis
 * is unreachable they are kept (the newest per send) and tried again every RETRY_MS until written,
 * never dropped; the failure is reported once per outage. `written()` waits for all of them.
 */
export class StatusWriter {
  readonly #o: StatusWriterOptions;
  readonly #changes = new PendingChanges();
  #writing: Promise<void> | undefined;
  #scheduled = false;
  #retry: NodeJS.Timeout | undefined;
  #failing = false;
  #closed = false;

  constructor(options: StatusWriterOptions) {
    this.#o = options;
  }

  record(id: string, change: OutboxChange): void {
    if (this.#closed) return;
    this.#changes.record(id, change);
    this.#schedule();
  }

  /** Resolves once every change recorded so far is in Redis (while it is down: waits). */
  written(): Promise<void> {
    const written = this.#changes.written();
    if (this.#changes.size > 0) this.#schedule();
    return written;
  }

  /** One write attempt of whatever is pending now (reads call it to see their own writes). */
  async sync(): Promise<void> {
    if (this.#writing) await this.#writing;
    if (this.#changes.size > 0) await this.#flush();
  }

  /** A last attempt, then every waiter is let go (what is not written stays unwritten). */
  async close(): Promise<void> {
    await this.sync();
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#changes.release();
  }

  #schedule(): void {
    if (this.#scheduled || this.#writing || this.#retry || this.#closed) return;
    this.#scheduled = true;
    setImmediate(() => void this.#flush());
  }

  #flush(): Promise<void> {
    this.#scheduled = false;
    if (this.#writing) return this.#writing;
    if (this.#changes.size === 0) return Promise.resolve();
    if (this.#o.connection.pending) {
      this.#writing = this.#o.connection.wait().finally(() => {
        this.#writing = undefined;
      });
      return this.#writing.then(() => this.#flush());
    }
    const multi = this.#o.redis.multi();
    const update = (multi as unknown as Record<'wakitOutboxUpdate', Update>).wakitOutboxUpdate;
    for (const [id, change] of this.#changes.take()) {
      const finished = FINISHED.has(change.status);
      void update.call(multi, this.#o.base, id, ...changeArgs(change, finished, this.#o.ttlMs));
    }
    this.#writing = multi
      .exec()
      .then((replies) => {
        if (!replies) throw new Error('the transaction was discarded');
        this.#changes.done();
        this.#failing = false;
        // A script error is no outage: it would fail again. Reported, not retried.
        const failed = replies.find(([error]) => error)?.[0];
        if (failed) this.#o.onError(redisUnavailable('record a send status', failed));
      }, undefined)
      .catch((error: unknown) => this.#failed(error))
      .finally(() => {
        this.#writing = undefined;
        if (this.#changes.size > 0) this.#schedule();
      });
    return this.#writing;
  }

  #failed(error: unknown): void {
    this.#changes.failed();
    if (!this.#failing) {
      this.#failing = true;
      this.#o.onError(
        redisUnavailable('record send status changes (kept, retried until written)', error),
      );
    }
    if (this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#schedule();
    }, RETRY_MS);
  }
}
