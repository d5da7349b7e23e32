/**
 * The conversations' timers: one clock timeout for the earliest due time of all (10,000 waiting
 * conversations cost one timer). Loaded from the store at start, so they survive restarts; they
 * fire with no new message.
 */
import type { Clock } from '../kernel/clock.js';
import { runOutside } from '../kernel/effect-guard.js';

const MAX_DELAY_MS = 2_147_483_647;

export class ConversationTimers {
  readonly #due = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #armedFor: number | undefined;
  #closed = false;

  constructor(
    private readonly clock: Clock,
    /** Called for each due conversation id (in due order). */
    private readonly fire: (id: string) => Promise<void>,
  ) {}

  /** Sets (or, with undefined, clears) the due time of a conversation. */
  set(id: string, dueAt: number | undefined): void {
    if (dueAt === undefined) this.#due.delete(id);
    else this.#due.set(id, dueAt);
    this.#arm();
  }

  get size(): number {
    return this.#due.size;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    if (this.#closed) return;
    let earliest: number | undefined;
    for (const at of this.#due.values()) if (earliest === undefined || at < earliest) earliest = at;
    if (earliest === this.#armedFor && this.#timer) return;
    if (this.#timer) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = earliest;
    if (earliest === undefined) return;
    const delay = Math.min(Math.max(0, earliest - this.clock.now()), MAX_DELAY_MS);
    // armed from a conversation's code too: its timers fire outside that conversation's scope
    this.#timer = runOutside(() => this.clock.setTimeout(() => void this.#run(), delay));
    this.#timer.unref?.();
  }

  async #run(): Promise<void> {
    this.#timer = undefined;
    this.#armedFor = undefined;
    const now = this.clock.now();
    const due = [...this.#due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .map(([id]) => id);
    for (const id of due) {
      this.#due.delete(id);
      if (this.#closed) return;
      await this.fire(id);
    }
    this.#arm();
  }
}
