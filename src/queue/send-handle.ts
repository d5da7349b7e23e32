import type { SendEntry } from './send-entry.js';
import type { SendHandle, SendResult } from './types.js';

/** What `enqueue` hands back for a send held in memory: its result is made only when read. */
export class Handle implements SendHandle {
  readonly #entry: SendEntry;
  constructor(entry: SendEntry) {
    this.#entry = entry;
  }
  get trackingId(): string {
    return this.#entry.id;
  }
  get result(): Promise<SendResult> {
    return this.#entry.result();
  }
}

/** The handle of a send that waits only in the outbox (beyond the window). */
export class PagedHandle implements SendHandle {
  readonly #queue: { follow(trackingId: string): Promise<SendResult> };
  constructor(
    readonly trackingId: string,
    queue: { follow(trackingId: string): Promise<SendResult> },
  ) {
    this.#queue = queue;
  }
  get result(): Promise<SendResult> {
    return this.#queue.follow(this.trackingId);
  }
}
