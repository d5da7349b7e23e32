import { isWakitError, type WakitError } from '../../src/index.js';

/** Awaits a promise that must reject with a WakitError, and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<WakitError> {
  try {
    await promise;
  } catch (error) {
    if (isWakitError(error)) return error;
    throw new Error(`expected a WakitError, got ${String(error)}`);
  }
  throw new Error('expected the promise to reject');
}
