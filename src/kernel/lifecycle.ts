import { WakitError } from '../errors/index.js';

export type Phase = 'idle' | 'starting' | 'started' | 'stopping' | 'stopped' | 'failed';

export type CloseHook = () => void | Promise<void>;

/** The SDK's lifecycle: idle → starting → started → stopping → stopped (or failed), and close hooks. */
export class Lifecycle {
  #phase: Phase = 'idle';
  readonly #closeHooks: { name: string; hook: CloseHook }[] = [];

  get phase(): Phase {
    return this.#phase;
  }

  /** Throws INVALID_STATE unless the current phase is one of `allowed`. */
  expect(action: string, ...allowed: Phase[]): void {
    if (!allowed.includes(this.#phase)) {
      throw new WakitError('INVALID_STATE', `Cannot ${action} while the SDK is ${this.#phase}`, {
        details: { phase: this.#phase, allowed },
      });
    }
  }

  enter(phase: Phase): void {
    this.#phase = phase;
  }

  /** Registers a hook run by `stop()`; hooks run in reverse order of registration. */
  onClose(name: string, hook: CloseHook): void {
    this.#closeHooks.push({ name, hook });
  }

  /** Runs every close hook, last registered first; a failing hook is reported and the rest still run. */
  async runCloseHooks(onError: (name: string, error: unknown) => void): Promise<void> {
    while (this.#closeHooks.length > 0) {
      const { name, hook } = this.#closeHooks.pop() as { name: string; hook: CloseHook };
      try {
        await hook();
      } catch (error) {
        onError(name, error);
      }
    }
  }
}
