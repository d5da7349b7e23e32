import type { Clock } from '../kernel/clock.js';
import type { DrainResult } from './types.js';

/** Who waits for the queue to hold no send any more (`drain`), each with a deadline. */
export class IdleWaiters {
  readonly #waiters = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  /** Resolves once `settle` finds the queue empty, or after `deadlineMs` with what remains. */
  wait(deadlineMs: number, size: () => number): Promise<DrainResult> {
    if (size() === 0) return Promise.resolve({ drained: true, remaining: 0 });
    return new Promise((resolve) => {
      const done = (): void => {
        this.clock.clearTimeout(timer);
        resolve({ drained: true, remaining: 0 });
      };
      const timer = this.clock.setTimeout(() => {
        this.#waiters.delete(done);
        resolve({ drained: false, remaining: size() });
      }, deadlineMs);
      this.#waiters.add(done);
    });
  }

  /** The queue holds `size` sends now: at 0 every waiter is done. */
  settle(size: number): void {
    if (this.#waiters.size === 0 || size > 0) return;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const waiter of waiters) waiter();
  }
}
