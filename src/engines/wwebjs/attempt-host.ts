import type { Logger } from 'pino';
import type { DisconnectReason } from '../types.js';
import type { WakitError } from '../../errors/index.js';
import type { EngineEventName, EngineEvents } from '../engine.js';
import type { Attempt } from './attempt.js';
import type { MessageLike } from './types.js';

/** What the event wiring of one attempt needs from its engine. */
export interface AttemptHost {
  readonly log: Logger;
  /** True while `attempt` is the engine's current attempt and its events count. */
  isLive(attempt: Attempt): boolean;
  /** Reports a background failure (EngineContext.report: the SDK's error sink). */
  report(event: string, error: unknown): void;
  /** Emits an engine event (listener errors are logged, never thrown). */
  fire<E extends EngineEventName>(event: E, ...args: EngineEvents[E]): void;
  /** The attempt is over: clean it up and report `disconnected(reason)` once. */
  end(attempt: Attempt, reason: DisconnectReason, cause?: unknown): void;
  /** WhatsApp refused the session: clean up and report `auth_failure`. */
  authFailed(attempt: Attempt, error: WakitError): void;
  /** A cause retrying cannot cure (a strict pin mismatch): clean up and report `failed`. */
  failed(attempt: Attempt, error: WakitError): void;
  /** WhatsApp Web loaded (QR shown or linked): the start watchdog is done. */
  loaded(attempt: Attempt): void;
  /** Keeps a whatsapp-web.js message for `forward`/`downloadMedia`. */
  remember(message: MessageLike): void;
  /** Own chat id once READY. */
  ownId(): string | undefined;
  /** The engine's clock time (the inbound check's silence). */
  now(): number;
  /** Latest WhatsApp Web state (`change_state`), for RemoteAuth's delete guard. */
  setWaState(state: string): void;
}
