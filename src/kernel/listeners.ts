/**
 * Calling other people's code safely: a listener that throws, or returns a promise that rejects,
 * must not stop the listeners after it, nor throw into whoever emitted the event. Its failure goes
 * to `onError` (the error sink, wherever it can be reached). The one helper for every "call the
 * listeners" loop of the core and the plugins.
 */

/** Where a listener's failure goes. It must not throw (ErrorSink.report and loggers do not). */
export type OnListenerError = (error: unknown) => void;

/**
 * Calls `fn(...args)`; a throw, or a rejection of the promise it returns, goes to `onError`.
 * Never throws. Returns what `fn` returned (undefined when it threw).
 */
export function callSafely<A extends unknown[], R>(
  fn: (...args: A) => R,
  args: A,
  onError: OnListenerError,
): R | undefined {
  try {
    const result = fn(...args);
    if (result instanceof Promise) result.catch(onError);
    return result;
  } catch (error) {
    onError(error);
    return undefined;
  }
}

/**
 * A set of listeners called in the order they were added. `emit` calls each one safely (see
 * `callSafely`) over a snapshot, so a listener may add or remove listeners while it runs.
 */
export class Listeners<A extends unknown[]> {
  readonly #set = new Set<(...args: A) => unknown>();

  constructor(private readonly onError: (error: unknown, ...args: A) => void) {}

  get size(): number {
    return this.#set.size;
  }

  /** Adds `listener`; the function returned removes it. */
  add(listener: (...args: A) => unknown): () => void {
    this.#set.add(listener);
    return () => this.#set.delete(listener);
  }

  delete(listener: (...args: A) => unknown): boolean {
    return this.#set.delete(listener);
  }

  clear(): void {
    this.#set.clear();
  }

  /** Calls every listener with `args`; never throws. */
  emit(...args: A): void {
    if (this.#set.size === 0) return;
    for (const listener of [...this.#set]) {
      try {
        const result = listener(...args);
        if (result instanceof Promise) {
          result.catch((error: unknown) => this.onError(error, ...args));
        }
      } catch (error) {
        this.onError(error, ...args);
      }
    }
  }
}
