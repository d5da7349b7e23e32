/** A fixed-window cap on how many messages one route routes: `max` per `windowMs`. */
export class RouteRate {
  #windowStart = 0;
  #count = 0;
  #warned = false;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes one slot: true when the message may be routed. `onFirstDrop` runs at the first refusal
   * of a window (one warning per window, not one per message).
   */
  take(onFirstDrop: () => void): boolean {
    const now = this.now();
    if (now - this.#windowStart >= this.windowMs) {
      this.#windowStart = now;
      this.#count = 0;
      this.#warned = false;
    }
    if (this.#count < this.max) {
      this.#count += 1;
      return true;
    }
    if (!this.#warned) {
      this.#warned = true;
      onFirstDrop();
    }
    return false;
  }
}
