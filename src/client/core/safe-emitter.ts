/**
 * A small typed event emitter whose `emit` never throws: a listener that throws, or returns a
 * promise that rejects, is reported to `onListenerError` and the other listeners still run. This is
 * what keeps a faulty user handler from crashing the process or the engine that emitted the event.
 */
import { callSafely } from '../../kernel/listeners.js';

type Listener<A extends unknown[]> = (...args: A) => unknown;

export class SafeEmitter<Events extends { [K in keyof Events]: unknown[] }> {
  private readonly listeners = new Map<keyof Events, Listener<never[]>[]>();

  constructor(private readonly onListenerError: (event: string, error: unknown) => void) {}

  on<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    const list = this.listeners.get(event) ?? [];
    // copy on write: emit iterates a snapshot without allocating
    this.listeners.set(event, [...list, listener]);
    return this;
  }

  once<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    const wrapper: Listener<Events[E]> = (...args) => {
      this.off(event, wrapper);
      return listener(...args);
    };
    (wrapper as { original?: unknown }).original = listener;
    return this.on(event, wrapper);
  }

  off<E extends keyof Events>(event: E, listener: Listener<Events[E]>): this {
    const list = this.listeners.get(event);
    if (!list) return this;
    const index = list.findIndex(
      (l) => l === listener || (l as { original?: unknown }).original === listener,
    );
    if (index >= 0) this.listeners.set(event, list.toSpliced(index, 1));
    return this;
  }

  listenerCount(event: keyof Events): number {
    return this.listeners.get(event)?.length ?? 0;
  }

  removeAllListeners(): void {
    this.listeners.clear();
  }

  emit<E extends keyof Events>(event: E, ...args: Events[E]): boolean {
    const list = this.listeners.get(event);
    if (!list || list.length === 0) return false;
    const onError = (error: unknown) => this.onListenerError(String(event), error);
    for (const listener of list) callSafely(listener as Listener<Events[E]>, args, onError);
    return true;
  }
}
