import type { OutboxChange } from './outbox-store.js';
import { PROGRESS_DELAY_MS } from './sqlite-rows.js';

/**
 * Delivery progress (delivered, read, played) waiting for its lazy write. Recovery does not need
 * it, so it is written once per send, with the changes of PROGRESS_DELAY_MS after the first one
 * (delivered and read usually share the write). Each commit takes what fell due since the one
 * before (a few writes under load, never one burst every 250 ms); the timer asks for a commit when
 * no other comes.
 */
export class LazyProgress {
  readonly #pending = new Map<
    string,
    { change: OutboxChange; seq: number | undefined; since: number }
  >();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly due: () => void) {}

  get size(): number {
    return this.#pending.size;
  }

  /** Keeps the latest progress of a send until it is due. */
  record(id: string, change: OutboxChange, seq: number | undefined): void {
    const pending = this.#pending.get(id);
    if (pending) pending.change = change;
    else this.#pending.set(id, { change, seq, since: Date.now() });
    this.#arm();
  }

  /** A send's whole state is being written: its waiting progress would only go back in time. */
  drop(id: string): void {
    this.#pending.delete(id);
  }

  /** The changes due now (or all of them), oldest first, removed from the wait. */
  take(all: boolean): Array<[id: string, change: OutboxChange, seq: number | undefined]> {
    const taken: Array<[string, OutboxChange, number | undefined]> = [];
    if (this.#pending.size === 0) return taken;
    const cutoff = all ? Infinity : Date.now() - PROGRESS_DELAY_MS;
    // Insertion order is the order of `since`.
    for (const [id, pending] of this.#pending) {
      if (pending.since > cutoff) break;
      taken.push([id, pending.change, pending.seq]);
      this.#pending.delete(id);
    }
    this.#arm();
    return taken;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    if (this.#timer || this.#pending.size === 0) return;
    const first = this.#pending.values().next().value!;
    const delay = Math.max(0, first.since + PROGRESS_DELAY_MS - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.due();
    }, delay);
    this.#timer.unref();
  }
}
