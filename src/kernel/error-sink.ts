import type { Logger } from 'pino';
import { toWakitError, type WakitError } from '../errors/index.js';
import { Listeners } from './listeners.js';

/** Where a failure happened. */
export type ErrorSource =
  | 'handler'
  | 'plugin'
  | 'command'
  | 'engine'
  | 'queue'
  | 'webhook'
  | 'hook'
  | 'client'
  | 'session'
  | 'fleet'
  | 'conversation'
  | 'handoff';

/** What `sdk.on('error', listener)` receives: one failure, with where it happened. */
export interface WakitErrorEvent {
  error: WakitError;
  source: ErrorSource;
  /** The plugin whose handler, command, hook or webhook failed. */
  plugin?: string;
  /** The event or hook being handled (`message`, `command:ping`, `close`, ...). */
  event?: string;
  client?: string;
  messageId?: string;
}

export type ErrorReport = Omit<WakitErrorEvent, 'error'> & { error: unknown };

/**
 * The one place failures of handlers, plugins, engines, the queue and webhooks go: each is logged
 * once, with its context, and handed to the `sdk.on('error')` listeners. Never throws.
 */
export class ErrorSink {
  readonly #log: Logger;
  readonly #listeners: Listeners<[event: WakitErrorEvent]>;
  /** Errors reported already (a second report of the same error is dropped). */
  readonly #reported = new WeakSet<object>();

  constructor(log: Logger) {
    this.#log = log;
    this.#listeners = new Listeners<[event: WakitErrorEvent]>((listenerError) =>
      this.#log.error({ err: toWakitError(listenerError) }, 'an error listener threw'),
    );
  }

  on(listener: (event: WakitErrorEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  report(report: ErrorReport): void {
    // one failure, one report: a start failure the supervisor reported also rejects initialize()
    const raw = report.error;
    if (typeof raw === 'object' && raw !== null) {
      if (this.#reported.has(raw)) return;
      this.#reported.add(raw);
    }
    const event: WakitErrorEvent = { ...report, error: toWakitError(raw) };
    this.#reported.add(event.error);
    const { error, source, ...where } = event;
    this.#log.error(
      { err: error, source, ...where },
      '%s failure%s: %s',
      source,
      where.plugin ? ` in plugin ${where.plugin}` : '',
      error.message,
    );
    this.#listeners.emit(event);
  }
}
