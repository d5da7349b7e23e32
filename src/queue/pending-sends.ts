import { Fifo } from './fifo.js';
import type { Level, SendEntry } from './send-entry.js';

/**
 * The sends waiting for their turn: one FIFO list per priority, and the chats still inside their
 * per-chat gap. `take` picks the next send that may go now: the highest priority first, the oldest
 * first within one priority, skipping sends whose chat is cooling down or whose retry backoff has
 * not passed (so one busy chat never blocks the others).
 */
export class PendingSends {
  readonly #lists: [Fifo<SendEntry>, Fifo<SendEntry>, Fifo<SendEntry>] = [
    new Fifo(),
    new Fifo(),
    new Fifo(),
  ];
  /** chatId → end of its per-chat gap; insertion order is end order (the gap is constant). */
  readonly #cooling = new Map<string, number>();
  /** Entries in the lists that wait for a retry backoff. */
  #delayed = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  sizeOf(level: Level): number {
    return this.#lists[level].size;
  }

  push(entry: SendEntry): void {
    this.#lists[entry.level].push(entry);
    this.#size++;
  }

  /** Puts a send that will be retried back in front of its priority (it keeps its place). */
  pushFront(entry: SendEntry): void {
    this.#lists[entry.level].unshift(entry);
    this.#size++;
    if (entry.notBefore > 0) this.#delayed++;
  }

  /** No send to `chatId` before `until`. */
  cool(chatId: string, until: number): void {
    this.#cooling.delete(chatId);
    this.#cooling.set(chatId, until);
  }

  /**
   * The next send that may go at `now` (removed from the lists), or how long to wait for one.
   * Messages may go from `messagesFrom` (the global gap); light actions (reactions, presence) skip
   * it and the per-chat gap (the queue spaces them by its light gap before calling).
   */
  take(now: number, messagesFrom = 0): SendEntry | number {
    this.#forgetCooled(now);
    if (this.#cooling.size === 0 && this.#delayed === 0 && messagesFrom <= now) {
      for (let level = 2; level >= 0; level--) {
        const entry = this.#lists[level as Level].shift();
        if (entry) {
          this.#size--;
          return entry;
        }
      }
      return Infinity;
    }
    let wait = Infinity;
    for (let level = 2; level >= 0; level--) {
      const list = this.#lists[level as Level];
      for (let index = 0; index < list.size; index++) {
        const entry = list.at(index)!;
        const until =
          entry.job?.action === 'light'
            ? entry.notBefore
            : Math.max(entry.notBefore, messagesFrom, this.#cooling.get(entry.chatId) ?? 0);
        if (until <= now) {
          list.removeAt(index);
          this.#size--;
          if (entry.notBefore > 0) {
            entry.notBefore = 0;
            this.#delayed--;
          }
          return entry;
        }
        if (until - now < wait) wait = until - now;
      }
    }
    return wait;
  }

  /** Empties everything, returning the sends that were waiting. */
  /** Tracking ids of every waiting send, highest priority first. */
  ids(): string[] {
    const ids: string[] = [];
    for (const level of [2, 1, 0] as const) {
      const list = this.#lists[level];
      for (let i = 0; i < list.size; i++) ids.push(list.at(i)!.id);
    }
    return ids;
  }

  takeAll(): SendEntry[] {
    const all = [2, 1, 0].flatMap((level) => this.#lists[level as Level].takeAll());
    this.#cooling.clear();
    this.#delayed = 0;
    this.#size = 0;
    return all;
  }

  #forgetCooled(now: number): void {
    for (const [chatId, until] of this.#cooling) {
      if (until > now) return;
      this.#cooling.delete(chatId);
    }
  }
}
