/** Capped exponential backoff with a limit on consecutive failures. */
export interface RestartPolicyOptions {
  /** Restarts allowed after consecutive failures; the next failure gives up. */
  maxRestarts: number;
  initialMs: number;
  maxMs: number;
}

export type RestartDecision =
  { retry: true; delayMs: number; attempt: number } | { retry: false; failures: number };

export class RestartPolicy {
  private failures = 0;

  constructor(private readonly options: RestartPolicyOptions) {}

  /** Consecutive failures since the last success. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Records a failure: retry after `delayMs` (initial, doubling, capped), or give up. */
  fail(): RestartDecision {
    this.failures += 1;
    if (this.failures > this.options.maxRestarts) return { retry: false, failures: this.failures };
    const { initialMs, maxMs } = this.options;
    const delayMs = Math.min(maxMs, initialMs * 2 ** (this.failures - 1));
    return { retry: true, delayMs, attempt: this.failures };
  }

  /** A start reached READY: the failure streak is over. */
  succeed(): void {
    this.failures = 0;
  }
}
