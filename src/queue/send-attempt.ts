import { WakitError, toWakitError } from '../errors/index.js';
import type { Clock } from '../kernel/clock.js';
import type { QueueJob } from './types.js';

export type AttemptOutcome = { ok: true; id: string } | { ok: false; error: WakitError };

/**
 * Runs one send attempt (`job.run`). It fails with SEND_TIMEOUT after `timeoutMs` (the signal given to `run` is
 * aborted), or with the reason `controller` is aborted with (SHUTTING_DOWN on close). Anything that
 * is not a WakitError becomes ENGINE_ERROR. Never rejects.
 */
export async function runAttempt(
  job: QueueJob,
  controller: AbortController,
  timeoutMs: number,
  clock: Clock,
  details: Record<string, unknown>,
): Promise<AttemptOutcome> {
  const { signal } = controller;
  const timer = clock.setTimeout(() => {
    controller.abort(
      new WakitError('SEND_TIMEOUT', `The send did not finish within ${timeoutMs} ms`, {
        details: { ...details, timeoutMs },
      }),
    );
  }, timeoutMs);
  try {
    const result = await new Promise<unknown>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      let pending: unknown;
      try {
        pending = job.run(signal);
      } catch (error) {
        reject(toWakitError(error, 'ENGINE_ERROR'));
        return;
      }
      // After a timeout the engine may still settle: that late outcome is ignored, never unhandled.
      Promise.resolve(pending).then(resolve, reject);
    });
    const id = (result as { id?: unknown } | null | undefined)?.id;
    if (typeof id !== 'string' || id === '') {
      return {
        ok: false,
        error: new WakitError(
          'ENGINE_ERROR',
          'The engine accepted the send but returned no message id',
          {
            details,
          },
        ),
      };
    }
    return { ok: true, id };
  } catch (error) {
    return { ok: false, error: toWakitError(error, 'ENGINE_ERROR') };
  } finally {
    clock.clearTimeout(timer);
  }
}
