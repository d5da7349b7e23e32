import PQueue from 'p-queue';
import type { Clock } from '../kernel/clock.js';
import { WakeTimer } from './wake-timer.js';

export interface DispatchSteps {
  clock: Clock;
  /** Something waits and the queue is not closed. */
  hasWork(): boolean;
  /** When the next send may go at the earliest (the global gap of the pacing). */
  nextAnyAt(): number;
  /**
   * Sends the next eligible send and resolves true (calling `sending()` once it picked one), or
   * resolves false when none may go now (having asked to be woken when one may).
   */
  sendNext(sending: () => void): Promise<boolean>;
  onError(error: unknown): void;
}

/**
 * When the outbound queue dispatches: one dispatch at a time on a p-queue executor (which carries
 * pause/resume), a timer to wake it when nothing may go yet, and a dispatch keeps going while the
 * next send may go at once (no gap, not paused), which saves one executor round trip per send when
 * pacing is off.
 */
export class DispatchLoop {
  readonly #executor = new PQueue({ concurrency: 1 });
  readonly #wake: WakeTimer;
  readonly #run = (): Promise<void> => this.#dispatch();
  /** A dispatch is waiting in, or running on, the executor. */
  #slotTaken = false;
  /** Something asked for a dispatch while one was under way: look again once it ends. */
  #pumpAgain = false;

  constructor(private readonly steps: DispatchSteps) {
    this.#wake = new WakeTimer(steps.clock, () => this.pump());
  }

  get paused(): boolean {
    return this.#executor.isPaused;
  }

  pause(): void {
    this.#executor.pause();
  }

  resume(): void {
    this.#executor.start();
  }

  /** Wakes the loop in `ms` unless it is woken earlier already. */
  wakeIn(ms: number): void {
    this.#wake.in(ms);
  }

  close(): void {
    this.#wake.cancel();
    this.#executor.clear();
  }

  /** Asks for a dispatch: now, when the pacing allows, or after the one under way. */
  pump(): void {
    if (this.#slotTaken) {
      // e.g. restore() reset the backlog while the dispatch awaited a page it will now drop
      this.#pumpAgain = true;
      return;
    }
    if (!this.steps.hasWork()) return;
    const now = this.steps.clock.now();
    const at = this.steps.nextAnyAt();
    if (now < at) {
      this.#wake.in(at - now);
      return;
    }
    this.#slotTaken = true;
    this.#executor.add(this.#run).catch((error: unknown) => this.steps.onError(error));
  }

  async #dispatch(): Promise<void> {
    let sent = false;
    const sending = (): void => {
      sent = true;
    };
    try {
      while (await this.steps.sendNext(sending)) {
        if (this.#executor.isPaused || this.steps.clock.now() < this.steps.nextAnyAt()) return;
      }
    } finally {
      this.#slotTaken = false;
      const again = sent || this.#pumpAgain;
      this.#pumpAgain = false;
      if (again) this.pump();
    }
  }
}
