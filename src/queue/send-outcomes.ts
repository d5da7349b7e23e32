import type { Logger } from 'pino';
import type { QueueConfig } from '../config/schema.js';
import type { WakitError } from '../errors/index.js';
import { computeBackoff } from '../kernel/backoff.js';
import type { HeldSends } from './held-sends.js';
import type { PendingSends } from './pending-sends.js';
import type { SendEntry } from './send-entry.js';
import { applyAck, type TrackingStore } from './tracking-store.js';

/** What applying outcomes needs of its queue. */
export interface OutcomeDeps {
  client: string;
  config: QueueConfig;
  tracking: TrackingStore;
  pending: PendingSends;
  random: () => number;
  log: Logger | undefined;
  /** The queue was closed: nothing is retried any more. */
  closed(): boolean;
  /** Reports a change of the entry (journal and listeners). */
  emit(entry: SendEntry): void;
  /** Sends held for ENGINE_INCOMPATIBLE, by tracking id. */
  held: HeldSends;
}

/**
 * How a send's outcome changes its entry: sent (with an ack that came before the send call's own
 * answer), failed, back in the queue for a retry after a backoff with jitter (transient errors,
 * `queue.retries` times), or forgotten (another process sends it now).
 */
export class SendOutcomes {
  constructor(private readonly deps: OutcomeDeps) {}

  succeed(entry: SendEntry, messageId: string, now: number, action = false): void {
    entry.status = 'sent';
    if (messageId !== '') entry.messageId = messageId;
    entry.sentAt = now;
    entry.updatedAt = now;
    // An action's id is the message acted on: its acks belong to that message's own send.
    const earlyAck = action ? undefined : this.deps.tracking.sent(entry, messageId);
    this.deps.tracking.finished(entry);
    entry.resolve(messageId);
    this.deps.emit(entry);
    if (earlyAck !== undefined && applyAck(entry, earlyAck, now)) this.deps.emit(entry);
  }

  failOrRetry(entry: SendEntry, error: WakitError, now: number): void {
    const { config } = this.deps;
    if (error.code === 'ENGINE_INCOMPATIBLE' && !this.deps.closed()) {
      this.hold(entry, error, now);
      return;
    }
    const retry =
      error.transient &&
      error.code !== 'SHUTTING_DOWN' &&
      !this.deps.closed() &&
      entry.attempts <= config.retries;
    if (!retry) {
      this.fail(entry, error, now);
      return;
    }
    const delay = computeBackoff(
      { initialMs: config.retryBackoffMs },
      entry.attempts,
      this.deps.random,
    );
    entry.notBefore = delay > 0 ? now + delay : 0;
    entry.status = 'queued';
    entry.updatedAt = now;
    this.deps.pending.pushFront(entry);
    this.deps.log?.warn(
      {
        client: this.deps.client,
        chatId: entry.chatId,
        trackingId: entry.id,
        code: error.code,
        attempt: entry.attempts,
        delay,
      },
      'send failed, retrying',
    );
    this.deps.emit(entry);
  }

  /**
   * The engine cannot make this send on its build: the caller learns it now (the result rejects
   * with ENGINE_INCOMPATIBLE) but the send is kept, its attempt not counted, until `retryHeld`.
   */
  hold(entry: SendEntry, error: WakitError, now: number): void {
    entry.attempts = Math.max(0, entry.attempts - 1);
    entry.status = 'held';
    entry.error = error;
    entry.updatedAt = now;
    entry.hold(error);
    this.deps.held.add(entry);
    this.deps.log?.warn(
      { client: this.deps.client, trackingId: entry.id, details: error.details },
      'send held: %s',
      error.message,
    );
    this.deps.emit(entry);
  }

  fail(entry: SendEntry, error: WakitError, now: number): void {
    entry.status = 'failed';
    entry.error = error;
    entry.updatedAt = now;
    this.deps.tracking.finished(entry);
    entry.reject(error);
    this.deps.emit(entry);
  }

  /** Drops a send that is another process's now (still open in the outbox): not failed. */
  forget(entry: SendEntry, error: WakitError): void {
    this.deps.tracking.forget(entry);
    entry.error = error;
    entry.reject(error);
  }
}
