import { WakitError, toWakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import type { QueueJob } from './types.js';

/** Handed to a `run` that declares no parameter: it cannot look at its signal, so it gets no own. */
const UNUSED_SIGNAL = new AbortController().signal;

export type AttemptOutcome = { ok: true; id: string } | { ok: false; error: WakitError };

/**
 * One send attempt (`job.run`). It fails with SEND_TIMEOUT after `timeoutMs`, or with the reason
 * given to `abort` (SHUTTING_DOWN on close); either way the signal given to `run` is aborted.
 * Anything thrown that is not a WakitError becomes ENGINE_ERROR. `outcome` never rejects.
 * An `AbortController` is made only for a `run` that takes the signal (`run.length > 0`): the SDK's
 * own jobs do not (an attempt that times out is failed here either way), and one controller per
 * send was ~2 % of the REST server's CPU.
 */
export class SendAttempt {
  #controller: AbortController | undefined;
  #fail: ((error: WakitError) => void) | undefined;

  abort(reason: WakitError): void {
    if (this.#controller && !this.#controller.signal.aborted) this.#controller.abort(reason);
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
          if (job.run.length === 0) {
            pending = job.run(UNUSED_SIGNAL);
          } else {
            this.#controller = new AbortController();
            pending = job.run(this.#controller.signal);
          }
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
