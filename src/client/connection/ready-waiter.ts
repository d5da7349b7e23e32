import { WakitError } from '../../errors/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { ClientState } from '../types.js';

export interface ReadyWaiterOptions {
  name: string;
  clock: Clock;
  state: () => ClientState;
  /** Why the client failed last, if it did: what a waiter is rejected with. */
  lastError: () => WakitError | null;
}

/**
 * `client.waitUntilReady(timeoutMs)`: resolves when the client becomes READY; rejects when it
 * fails or stops (with the failure, else CLIENT_NOT_READY) or after the timeout (TIMEOUT).
 */
export class ReadyWaiter {
  readonly #waiters = new Set<(to: ClientState) => void>();

  constructor(private readonly o: ReadyWaiterOptions) {}

  wait(timeoutMs: number): Promise<void> {
    const { name, clock } = this.o;
    const state = this.o.state();
    if (state === 'READY') return Promise.resolve();
    if (state === 'FAILED') {
      return Promise.reject(
        this.o.lastError() ?? new WakitError('CLIENT_NOT_READY', `Client ${name} is FAILED`),
      );
    }
    return new Promise((resolve, reject) => {
      const settle = (error?: WakitError): void => {
        clock.clearTimeout(timer);
        this.#waiters.delete(onState);
        if (error) reject(error);
        else resolve();
      };
      const onState = (to: ClientState): void => {
        if (to === 'READY') settle();
        else if (to === 'FAILED' || to === 'STOPPED') {
          settle(
            this.o.lastError() ??
              new WakitError('CLIENT_NOT_READY', `Client ${name} is ${to}`, {
                details: { state: to },
              }),
          );
        }
      };
      const timer = clock.setTimeout(() => {
        settle(
          new WakitError('TIMEOUT', `Client ${name} not READY after ${timeoutMs} ms`, {
            details: { state: this.o.state() },
          }),
        );
      }, timeoutMs);
      this.#waiters.add(onState);
    });
  }

  /** Every state change of the client, to settle the waiters. */
  notify(to: ClientState): void {
    for (const waiter of [...this.#waiters]) waiter(to);
  }
}
