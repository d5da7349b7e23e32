/**
 * Retry delays: capped exponential backoff with jitter, one helper for the queue's retries, webhook
 * deliveries and the connection supervisor's reconnects. The ceiling of retry `n` (1-based) is
 * `min(maxMs, initialMs * 2^(n-1))`;
 * - `full` (default): uniform in [0, ceiling] (spreads retries of many senders apart);
 * - `decorrelated`: uniform in [initialMs, 3 × previous delay], capped at maxMs (needs the previous
 *   delay: use the `Backoff` class, or pass it);
 * - `none`: the ceiling itself (plain doubling).
 * `random` is injectable (tests); it returns values in [0, 1) like `Math.random`.
 */
export type BackoffJitter = 'full' | 'decorrelated' | 'none';

export interface BackoffPolicy {
  /** Delay ceiling of the first retry (ms). */
  initialMs: number;
  /** Largest delay (ms); uncapped when absent. */
  maxMs?: number;
  jitter?: BackoffJitter;
}

/** Uniform integer in [low, high] drawn from `random`. */
function between(low: number, high: number, random: () => number): number {
  if (high <= low) return low;
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.min(high, low + Math.floor(r * (high - low + 1)));
}

/** Delay before retry number `attempt` (counting from 1). */
export function computeBackoff(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
  previousMs?: number,
): number {
  const initial = Math.max(0, policy.initialMs);
  const max = Math.max(0, policy.maxMs ?? Number.POSITIVE_INFINITY);
  const jitter = policy.jitter ?? 'full';
  if (jitter === 'decorrelated') {
    const previous = Math.max(previousMs ?? initial, initial);
    return Math.min(max, between(initial, previous * 3, random));
  }
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const ceiling = Math.min(max, initial * 2 ** Math.min(exponent, 52));
  return jitter === 'none' ? ceiling : between(0, ceiling, random);
}

/** The retry delays of one sequence of attempts (remembers the attempt and the previous delay). */
export class Backoff {
  #attempt = 0;
  #previous: number | undefined;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  /** Retries taken so far in this sequence. */
  get attempts(): number {
    return this.#attempt;
  }

  /** The delay before the next retry. */
  next(): number {
    this.#attempt += 1;
    this.#previous = computeBackoff(this.policy, this.#attempt, this.random, this.#previous);
    return this.#previous;
  }

  /** Starts a new sequence (after a success). */
  reset(): void {
    this.#attempt = 0;
    this.#previous = undefined;
  }
}
