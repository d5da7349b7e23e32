import type { PendingSends } from './pending-sends.js';
import type { SendEntry } from './send-entry.js';

/**
 * Sends the engine cannot make on its WhatsApp Web build (ENGINE_INCOMPATIBLE), kept out of the
 * queue (and `queued` in the outbox) until someone retries them after an upgrade or a reload.
 */
export class HeldSends {
  readonly #entries = new Map<string, SendEntry>();

  get size(): number {
    return this.#entries.size;
  }

  add(entry: SendEntry): void {
    this.#entries.set(entry.id, entry);
  }

  takeAll(): SendEntry[] {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    return entries;
  }

  /** Puts them back at the head of `pending`, in their order, as `queued`; returns how many. */
  release(pending: PendingSends, now: number, emit: (entry: SendEntry) => void): number {
    const entries = this.takeAll();
    for (const entry of entries.reverse()) {
      entry.status = 'queued';
      entry.error = undefined;
      entry.notBefore = 0;
      entry.updatedAt = now;
      pending.pushFront(entry);
      emit(entry);
    }
    return entries.length;
  }
}
