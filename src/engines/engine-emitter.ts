import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { callSafely } from '../kernel/listeners.js';
import type { EngineEventName, EngineEvents } from './engine.js';

/**
 * The typed event half of an Engine: `on/off/once` with the port's event map, and `fire`, which
 * calls every listener safely: a listener's throw is logged, the listeners after it still run,
 * and nothing is thrown into the engine.
 */
export abstract class EngineEmitter extends EventEmitter {
  constructor(private readonly eventLog: Logger) {
    super();
  }

  override on<E extends EngineEventName>(
    event: E,
    listener: (...args: EngineEvents[E]) => void,
  ): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  override off<E extends EngineEventName>(
    event: E,
    listener: (...args: EngineEvents[E]) => void,
  ): this {
    return super.off(event, listener as (...args: unknown[]) => void);
  }

  override once<E extends EngineEventName>(
    event: E,
    listener: (...args: EngineEvents[E]) => void,
  ): this {
    return super.once(event, listener as (...args: unknown[]) => void);
  }

  fire<E extends EngineEventName>(event: E, ...args: EngineEvents[E]): void {
    // rawListeners: `once` wrappers, which remove themselves when called
    for (const listener of this.rawListeners(event)) {
      callSafely(listener as (...a: EngineEvents[E]) => unknown, args, (error) =>
        this.eventLog.error({ err: error, event }, 'engine event listener threw'),
      );
    }
  }
}
