import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { EngineEventName, EngineEvents } from './engine.js';

/**
 * The typed event half of an Engine: `on/off/once` with the port's event map, and `fire`, which
 * emits without ever throwing into the engine (a listener's throw is logged).
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
    try {
      this.emit(event, ...args);
    } catch (error) {
      this.eventLog.error({ err: error, event }, 'engine event listener threw');
    }
  }
}
