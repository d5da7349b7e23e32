import type { OutboxChange } from '../../queue/outbox/outbox-store.js';

interface Pending {
  change: OutboxChange;
  /** Order of recording: `committed()` waits for every change up to a number. */
  gen: number;
}

/**
 * The status changes of the Redis outbox not yet written: the newest per send, each with the order
 * it was recorded in. A batch is taken for one write; when the write fails its changes go back
 * (unless a newer one of the same send came meanwhile), so nothing is dropped while Redis is down.
 * `written()` resolves once every change recorded before it is in Redis.
 */
export class PendingChanges {
  #pending = new Map<string, Pending>();
  #writing: Map<string, Pending> | undefined;
  #gen = 0;
  readonly #waiters: { gen: number; resolve(): void }[] = [];

  get size(): number {
    return this.#pending.size;
  }

  get writing(): boolean {
    return this.#writing !== undefined;
  }

  record(id: string, change: OutboxChange): void {
    this.#pending.delete(id);
    this.#pending.set(id, { change, gen: ++this.#gen });
  }

  /** Takes everything pending for one write; `done` or `failed` must follow. */
  take(): Array<[id: string, change: OutboxChange]> {
    const batch = this.#pending;
    this.#pending = new Map();
    this.#writing = batch;
    return [...batch].map(([id, { change }]) => [id, change]);
  }

  /** The batch taken is written. */
  done(): void {
    this.#writing = undefined;
    this.#settle();
  }

  /** The batch taken was not written: its changes wait again (newer ones win). */
  failed(): void {
    const batch = this.#writing;
    this.#writing = undefined;
    if (!batch) return;
    for (const [id, pending] of batch) if (!this.#pending.has(id)) this.#pending.set(id, pending);
  }

  /** Resolves once every change recorded so far is written (or `release` was called). */
  written(): Promise<void> {
    const gen = this.#gen;
    if (this.#lowestUnwritten() > gen) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ gen, resolve }));
  }

  /** Lets every waiter go (the store closes). */
  release(): void {
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  #lowestUnwritten(): number {
    let lowest = Infinity;
    for (const { gen } of this.#pending.values()) lowest = Math.min(lowest, gen);
    if (this.#writing) for (const { gen } of this.#writing.values()) lowest = Math.min(lowest, gen);
    return lowest;
  }

  #settle(): void {
    if (this.#waiters.length === 0) return;
    const lowest = this.#lowestUnwritten();
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i];
      if (waiter.gen < lowest) {
        this.#waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
