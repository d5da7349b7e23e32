import type { Clock } from './clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  handle: NodeJS.Timeout;
}

/**
 * A clock that moves only when told (`advance`): timers of the kernel that use it (conversation
 * timeouts) fire in order, with no waiting. Zero-delay timers still run on the next turn, so work
 * that only yields keeps going.
 */
export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #pending = new Map<NodeJS.Timeout, Pending>();

  constructor(start: number = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): NodeJS.Timeout {
    if (ms <= 0) return setTimeout(fn, 0);
    // a real handle that never fires by itself: the map keeps what to run and when
    const handle = setTimeout(() => undefined, 2_147_483_647);
    handle.unref();
    clearTimeout(handle);
    this.#pending.set(handle, { at: this.#now + ms, seq: this.#seq++, fn, handle });
    return handle;
  }

  clearTimeout(handle: NodeJS.Timeout): void {
    if (!this.#pending.delete(handle)) clearTimeout(handle);
  }

  /** Time until the next pending timer fires (ms, 0 when due); undefined when none waits. */
  nextDueIn(): number | undefined {
    let at: number | undefined;
    for (const p of this.#pending.values()) if (at === undefined || p.at < at) at = p.at;
    return at === undefined ? undefined : Math.max(0, at - this.#now);
  }

  /** Moves time on by `ms`, running each timer due on the way, in order, at its own time. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      const next = [...this.#pending.values()]
        .filter((p) => p.at <= end)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.#pending.delete(next.handle);
      this.#now = next.at;
      next.fn();
      // let what the timer started run before the next one fires
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#now = end;
  }
}
