import { WakitError } from '../errors/index.js';
import { Fifo } from './fifo.js';
import type { SendEntry } from './send-entry.js';
import type { TrackingStatus } from './types.js';

/** Acks that arrive before the send call returned its message id are kept this long (count). */
const EARLY_ACK_LIMIT = 256;

const ACK_STATUS: Record<number, TrackingStatus> = {
  0: 'sent',
  1: 'sent',
  2: 'delivered',
  3: 'read',
  4: 'played',
};

/**
 * In-memory tracking of accepted sends: look-up by tracking id and by WhatsApp message id, ack
 * progress, and eviction of finished records beyond `limit`, oldest finished first.
 */
export class TrackingStore {
  readonly #limit: number;
  readonly #records = new Map<string, SendEntry>();
  readonly #byMessageId = new Map<string, SendEntry>();
  readonly #finished = new Fifo<SendEntry>();
  readonly #earlyAcks = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#records.size;
  }

  add(entry: SendEntry): void {
    this.#records.set(entry.id, entry);
  }

  /** Forgets an unfinished record (its send is another process's now). */
  forget(entry: SendEntry): void {
    this.#records.delete(entry.id);
  }

  get(trackingId: string): SendEntry | undefined {
    return this.#records.get(trackingId);
  }

  /** Registers a sent message id; returns an ack that arrived before it, if any. */
  sent(entry: SendEntry, messageId: string): number | undefined {
    this.#byMessageId.set(messageId, entry);
    const early = this.#earlyAcks.get(messageId);
    if (early !== undefined) this.#earlyAcks.delete(messageId);
    return early;
  }

  /** Marks a record finished (sent or failed): from now on it counts towards the limit. */
  finished(entry: SendEntry): void {
    this.#finished.push(entry);
    while (this.#finished.size > this.#limit) {
      const old = this.#finished.shift()!;
      this.#records.delete(old.id);
      if (old.messageId !== undefined) this.#byMessageId.delete(old.messageId);
    }
  }

  /** Remembers an ack for a message id not known yet (the send call has not returned). */
  rememberEarlyAck(messageId: string, ack: number): void {
    const previous = this.#earlyAcks.get(messageId);
    if (previous !== undefined && previous >= ack) return;
    this.#earlyAcks.delete(messageId);
    this.#earlyAcks.set(messageId, ack);
    if (this.#earlyAcks.size > EARLY_ACK_LIMIT) {
      this.#earlyAcks.delete(this.#earlyAcks.keys().next().value!);
    }
  }

  byMessageId(messageId: string): SendEntry | undefined {
    return this.#byMessageId.get(messageId);
  }
}

/**
 * Applies a WhatsApp ack to a sent record. Acks only move forward (they can arrive out of order);
 * `-1` (error) fails a record that is `sent` and not yet delivered. Returns true when it changed.
 */
export function applyAck(entry: SendEntry, ack: number, now: number): boolean {
  if (!Number.isInteger(ack) || ack < -1 || ack > 4) return false;
  if (ack === -1) {
    if (entry.status !== 'sent') return false;
    entry.status = 'failed';
    entry.ack = -1;
    entry.error = new WakitError(
      'ENGINE_ERROR',
      'WhatsApp reported the message as not delivered (ack -1)',
      {
        details: { messageId: entry.messageId, ack },
      },
    );
    entry.updatedAt = now;
    return true;
  }
  const status = entry.status;
  if (status === 'failed' || status === 'queued' || status === 'sending' || status === 'held') {
    return false;
  }
  if (entry.ack !== undefined && ack <= entry.ack) return false;
  entry.ack = ack;
  entry.status = ACK_STATUS[ack]!;
  entry.updatedAt = now;
  return true;
}
