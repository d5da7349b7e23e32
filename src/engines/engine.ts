/**
 * The Engine port: everything a client knows of a WhatsApp connection. Two implementations pass
 * the shared contract suite (test/engines/engine-contract.ts): the simulator and whatsapp-web.js.
 *
 * Lifecycle as seen through events: `start()` resolves once the engine is launched (before it is
 * linked); then either `qr` (repeatedly, on every refresh) or directly `authenticated` (a restored
 * session), then `ready`. Losing the connection emits `disconnected` with a reason. Engines never
 * throw from event emission and never leave unhandled rejections: failures become events.
 */
import type { Logger } from 'pino';
import type { SessionStore } from '../auth/session-store.js';
import type { WakitError } from '../errors/index.js';
import type {
  AckUpdate,
  DisconnectReason,
  EngineContent,
  MediaFile,
  MessageData,
} from './types.js';
import type { AccountOps } from './ports/account.js';
import type { ActionEvents, ActionOps } from './ports/actions.js';
import type { CallEvents, CallOps } from './ports/calls.js';
import type { ChatOps } from './ports/chats.js';
import type { ContactOps } from './ports/contacts.js';
import type { GroupEvents, GroupOps } from './ports/groups.js';
import type { MessageEvents, MessageOps } from './ports/messages.js';
import type { PresenceEvents, PresenceOps } from './ports/presence.js';

/** The events of being a linked device: linking, the connection, messages and their acks. */
export interface CoreEngineEvents {
  qr: [qr: string];
  /** Linked: `restored` is true when the session came from the store (no QR was shown). */
  authenticated: [info: { restored: boolean }];
  auth_failure: [error: WakitError];
  /**
   * The attempt ended for a cause retrying cannot cure (a strict pin mismatch): the client goes
   * FAILED with this error, no reconnect.
   */
  failed: [error: WakitError];
  ready: [];
  /**
   * `cause`: what failed, when the engine knows (a failed start's error): the client's reconnect
   * ladder classifies it (src/client/connection/failure-ladder.ts).
   */
  disconnected: [reason: DisconnectReason, cause?: unknown];
  /** A message from someone else. */
  message: [message: MessageData];
  /** Any message created in a chat of this account, own ones included (`fromMe`). */
  'message.create': [message: MessageData];
  'message.ack': [update: AckUpdate];
}

/** Every engine event: the core ones and each area's, declared beside the area's operations. */
export interface EngineEvents
  extends CoreEngineEvents, GroupEvents, CallEvents, MessageEvents, ActionEvents, PresenceEvents {}

export type EngineEventName = keyof EngineEvents;

export interface EngineIdentity {
  /** Own chat id (`<digits>@c.us`). */
  id: string;
  pushname: string;
}

/**
 * What an engine does on the linked account, by area: `engine.ops.groups.create(…)`. Each area's
 * interface is its port file in src/engines/ports/ (the contract of the area); both engines
 * implement every area, one file per area. Operations need the client READY (they reject with
 * CLIENT_NOT_READY otherwise) unless their doc says so, and throw coded WakitErrors.
 */
export interface EngineOps {
  /** Pairing by phone number, engine health. */
  readonly account: AccountOps;
  readonly chats: ChatOps;
  readonly contacts: ContactOps;
  readonly groups: GroupOps;
  readonly calls: CallOps;
  /** Quoted messages (the message kinds themselves are sent with `send`). */
  readonly messages: MessageOps;
  /** React, edit, delete. */
  readonly actions: ActionOps;
  /** Seen, typing, online. */
  readonly presence: PresenceOps;
}

/**
 * A WhatsApp linked device: its lifecycle, sending, and the two operations on messages the spec
 * gives every message (`forward`, `downloadMedia`); everything else is in `ops`, by area.
 */
export interface Engine {
  /** Engine type name, e.g. `simulator` or `whatsapp-web.js`. */
  readonly type: string;
  /** Launch and begin linking/restoring. Resolves once launched; linking progresses via events. */
  start(): Promise<void>;
  /** Disconnect and release everything, keeping the saved session. Idempotent. */
  stop(): Promise<void>;
  /** Log out: invalidate and delete the session, then stop. */
  logout(): Promise<void>;
  /** Send content to a chat id (already validated and normalised). Throws coded WakitErrors. */
  send(chatId: string, content: EngineContent): Promise<{ id: string }>;
  /** Forward an existing message (by serialized id) to a chat. */
  forward(messageId: string, chatId: string): Promise<{ id: string }>;
  /** Download the media of a received message. */
  downloadMedia(messageId: string): Promise<MediaFile>;
  /** The linked account, or null when not linked yet. */
  me(): EngineIdentity | null;
  /** The account operations, by area. */
  readonly ops: EngineOps;

  on<E extends EngineEventName>(event: E, listener: (...args: EngineEvents[E]) => void): this;
  off<E extends EngineEventName>(event: E, listener: (...args: EngineEvents[E]) => void): this;
}

/** What an engine factory receives for each client. */
export interface EngineContext {
  clientName: string;
  store: SessionStore;
  logger: Logger;
  /**
   * Reports a failure no caller sees (a background step: a session not saved, a browser not
   * disposed) to the SDK's error sink, source `engine`, this client. Given by the client; an engine
   * built without it logs instead (`engineReporter`).
   */
  report?(event: string, error: unknown): void;
}

/** `context.report`, or a log line when the engine runs without an SDK around it. */
export function engineReporter(context: EngineContext): (event: string, error: unknown) => void {
  return (
    context.report?.bind(context) ??
    ((event, error) =>
      context.logger.error(
        { err: error, event, client: context.clientName },
        'engine: %s failed',
        event,
      ))
  );
}

/** Creates a fresh engine for each (re)start of a client; may load the engine's module lazily. */
export type EngineFactory = (context: EngineContext) => Engine | Promise<Engine>;
