import type { Clock } from '../kernel/clock.js';

/**
 * The outbound queue's one wake-up: when nothing may go now (pacing gap, chats cooling down,
 * retries backing off), it asks to be woken when the earliest of them may. A later wish never
 * delays an earlier one; an earlier one replaces it.
 */
export class WakeTimer {
  #timer: NodeJS.Timeout | undefined;
  #due = 0;

  constructor(
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  /** Wakes the queue in `ms` unless it is woken earlier already. */
  in(ms: number): void {
    const due = this.clock.now() + ms;
    if (this.#timer) {
      if (this.#due <= due) return;
      this.clock.clearTimeout(this.#timer);
    }
    this.#due = due;
    this.#timer = this.clock.setTimeout(() => {
      this.#timer = undefined;
      this.wake();
    }, ms);
  }

  cancel(): void {
    if (this.#timer) this.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
