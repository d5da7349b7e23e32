import type { QueueConfig } from '../config/schema.js';

/**
 * The pacing rules of one client's queue: after a message the next may start once `minGapMs` plus
 * a random jitter in [0, jitterMs] passed; after a light action (reaction, presence, read receipt)
 * only `lightGapMs`, never more than a message gap can be. It remembers when the next message and
 * the next action of any kind may start. (The per-chat gap is kept with the waiting sends.)
 */
export class Pacing {
  /** Earliest start of the next message (end of the last send plus the gap). */
  nextSendAt = 0;
  /** Earliest start of the next light action: the light gap. */
  nextAnyAt = 0;
  readonly #config: QueueConfig;
  readonly #random: () => number;

  constructor(config: QueueConfig, random: () => number) {
    this.#config = config;
    this.#random = random;
  }

  /** A send ended at `end`: a light action only holds back what comes next by the light gap. */
  ended(end: number, light: boolean): void {
    if (light) {
      this.nextAnyAt = end + this.#lightGap();
      this.nextSendAt = Math.max(this.nextSendAt, this.nextAnyAt);
      return;
    }
    const gap = this.#gap();
    this.nextSendAt = end + gap;
    this.nextAnyAt = end + Math.min(gap, this.#lightGap());
  }

  /** The pause after a send: `minGapMs` plus a uniform random jitter in [0, jitterMs]. */
  #gap(): number {
    const { minGapMs, jitterMs } = this.#config;
    if (jitterMs === 0) return minGapMs;
    const random = Math.min(Math.max(this.#random(), 0), 1);
    return minGapMs + Math.min(jitterMs, Math.floor(random * (jitterMs + 1)));
  }

  /** The gap after a light action: `lightGapMs`, never more than the message gap can be. */
  #lightGap(): number {
    const { lightGapMs, minGapMs, jitterMs } = this.#config;
    return Math.min(lightGapMs, minGapMs + jitterMs);
  }
}
