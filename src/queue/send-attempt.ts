import { WakitError, toWakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import type { QueueJob } from './types.js';

export type AttemptOutcome = { ok: true; id: string } | { ok: false; error: WakitError };

/**
 * One send attempt (`job.run`). It fails with SEND_TIMEOUT after `timeoutMs`, or with the reason
 * given to `abort` (SHUTTING_DOWN on close); either way the signal given to `run` is aborted.
 * Anything thrown that is not a WakitError becomes ENGINE_ERROR. `outcome` never rejects.
 */
export class SendAttempt {
  readonly #controller = new AbortController();
  #fail: ((error: WakitError) => void) | undefined;

  abort(reason: WakitError): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
    this.#fail?.(reason);
  }

  async outcome(
    job: QueueJob,
    timeoutMs: number,
    clock: Clock,
    details: Record<string, unknown>,
  ): Promise<AttemptOutcome> {
    const timer = clock.setTimeout(() => {
      this.abort(
        new WakitError('SEND_TIMEOUT', `The send did not finish within ${timeoutMs} ms`, {
          details: { ...details, timeoutMs },
        }),
      );
    }, timeoutMs);
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        this.#fail = reject;
        let pending: unknown;
        try {
          pending = job.run(this.#controller.signal);
        } catch (error) {
          reject(toWakitError(error, 'ENGINE_ERROR'));
          return;
        }
        // After a timeout the engine may still settle: that late outcome is ignored, never unhandled.
        Promise.resolve(pending).then(resolve, reject);
      });
      const id = (result as { id?: unknown } | null | undefined)?.id;
      // Presence actions make no message: '' is their id (job.action); a message needs one.
      if (typeof id !== 'string' || (id === '' && job.action === undefined)) {
        const message = 'The engine accepted the send but returned no message id';
        return { ok: false, error: new WakitError('ENGINE_ERROR', message, { details }) };
      }
      return { ok: true, id };
    } catch (error) {
      return { ok: false, error: toWakitError(error, 'ENGINE_ERROR') };
    } finally {
      this.#fail = undefined;
      clock.clearTimeout(timer);
    }
  }
}
