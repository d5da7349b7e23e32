import type { Logger } from 'pino';
import type { ReconnectConfig } from '../../config/schema.js';
import { WakitError } from '../../errors/index.js';
import { Backoff } from '../../kernel/backoff.js';
import type { Clock } from '../../kernel/clock.js';
import type { DisconnectReason } from '../../engines/types.js';
import type { Classified } from './failure-ladder.js';

/** A client waiting to reconnect: why, and when it tries next (client info `reconnect`). */
export interface ReconnectInfo {
  /** The disconnect reason of the last failure. */
  reason: DisconnectReason;
  /** Its cause on the reconnect ladder (`network`, `whatsapp_unreachable`, …, else the reason). */
  cause: string;
  /** True when the cause is retried until it is cured (no `reconnect.maxAttempts` limit). */
  untilCured: boolean;
  /** Reconnect attempts since the client was last READY (this one included). */
  attempt: number;
  /** ISO time of the next attempt. */
  nextAttemptAt: string;
  /** What failed, when the engine said. */
  error: string | null;
}

export interface ReconnectScheduleOptions {
  name: string;
  config: ReconnectConfig;
  clock: Clock;
  log: Logger;
  random?: () => number;
}

/**
 * The reconnect timer of one client: capped exponential backoff with jitter (the `reconnect`
 * section); the attempt limit applies to `limited` causes only, `forever` causes (the network,
 * WhatsApp unreachable) retry at the capped delay until they are cured.
 */
export class ReconnectSchedule {
  readonly #backoff: Backoff;
  #timer: NodeJS.Timeout | null = null;
  #info: ReconnectInfo | null = null;

  constructor(private readonly o: ReconnectScheduleOptions) {
    const { initialDelayMs, maxDelayMs, jitter } = o.config;
    this.#backoff = new Backoff({ initialMs: initialDelayMs, maxMs: maxDelayMs, jitter }, o.random);
  }

  get info(): ReconnectInfo | null {
    return this.#info;
  }

  /** READY, a fresh `initialize()` or a stop: the next failure starts from the first delay. */
  reset(): void {
    this.cancel();
    this.#backoff.reset();
    this.#info = null;
  }

  cancel(): void {
    if (this.#timer) this.o.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /**
   * Runs `attempt` after the next backoff delay; returns the error to fail with instead when a
   * `limited` cause used up `reconnect.maxAttempts`.
   */
  schedule(
    failure: { reason: DisconnectReason; classified: Classified; error: WakitError | null },
    attempt: () => void,
  ): WakitError | null {
    const { maxAttempts } = this.o.config;
    const untilCured = failure.classified.rung === 'forever';
    if (!untilCured && this.#backoff.attempts >= maxAttempts) {
      const last = failure.error;
      this.#info = null;
      return new WakitError(
        'ENGINE_ERROR',
        `Gave up after ${maxAttempts} reconnect attempts` +
          (last ? `; the last start failed: ${last.message}` : ''),
        { details: { attempts: this.#backoff.attempts }, ...(last ? { cause: last } : {}) },
      );
    }
    const delay = this.#backoff.next();
    const { cause } = failure.classified;
    this.#info = {
      reason: failure.reason,
      cause,
      untilCured,
      attempt: this.#backoff.attempts,
      nextAttemptAt: new Date(this.o.clock.now() + delay).toISOString(),
      error: failure.error?.message ?? null,
    };
    const log = untilCured ? this.o.log.warn.bind(this.o.log) : this.o.log.info.bind(this.o.log);
    log(
      { attempt: this.#backoff.attempts, delay, cause, untilCured },
      'client %s: reconnecting in %d ms (%s)',
      this.o.name,
      delay,
      cause,
    );
    this.cancel();
    this.#timer = this.o.clock.setTimeout(() => {
      this.#timer = null;
      attempt();
    }, delay);
    return null;
  }
}
