import { Listeners } from '../kernel/listeners.js';
import { queueErrors } from './queue-errors.js';
import type { TrackedSend, UpdateListener } from './types.js';

/**
 * Who follows the outbound queue's `update` event: each tracked send's record, frozen, to every
 * listener; a listener that throws is reported and the others still hear it.
 */
export class UpdateListeners {
  readonly #listeners: Listeners<[record: TrackedSend]>;

  constructor(onError: (error: unknown) => void) {
    this.#listeners = new Listeners<[record: TrackedSend]>(onError);
  }

  /** Whether anybody listens (records are made only then). */
  get any(): boolean {
    return this.#listeners.size > 0;
  }

  /** Adds a listener of `event` (only `update` is known: VALIDATION_FAILED otherwise). */
  add(event: string, listener: UpdateListener): void {
    if (event !== 'update') throw queueErrors.unknownEvent(event);
    this.#listeners.add(listener);
  }

  delete(event: string, listener: UpdateListener): void {
    if (event !== 'update') throw queueErrors.unknownEvent(event);
    this.#listeners.delete(listener);
  }

  notify(record: TrackedSend): void {
    if (this.#listeners.size === 0) return;
    Object.freeze(record);
    this.#listeners.emit(record);
  }
}
