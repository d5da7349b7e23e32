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
  ContactInfo,
  DisconnectReason,
  EngineContent,
  MessageData,
} from './types.js';
import type { MediaFile } from './types.js';
import type { GroupEngine, GroupEngineEvents } from './ports/groups.js';
import type { CallData, CallEngine } from './ports/calls.js';
import type { ChatEngine } from './ports/chats.js';
import type { ContactEngine } from './ports/contacts.js';
import type { MessagesEngine, MessagesEngineEvents } from './ports/messages.js';
import type { ActionsEngine, EditUpdate, ReactionUpdate, RevokeUpdate } from './ports/actions.js';
import type { PresenceEngine } from './ports/presence.js';
import type { EngineProbe } from './health.js';

export interface EngineEvents {
  qr: [qr: string];
  /** Linked: `restored` is true when the session came from the store (no QR was shown). */
  authenticated: [info: { restored: boolean }];
  auth_failure: [error: WakitError];
  ready: [];
  disconnected: [reason: DisconnectReason];
  /** A message from someone else. */
  message: [message: MessageData];
  /** Any message created in a chat of this account, own ones included (`fromMe`). */
  'message.create': [message: MessageData];
  'message.ack': [update: AckUpdate];
  'group.join': GroupEngineEvents['group.join'];
  'group.leave': GroupEngineEvents['group.leave'];
  'group.update': GroupEngineEvents['group.update'];
  /** Someone calls the account (voice or video, private or group). */
  call: [call: CallData];
  'poll.vote': MessagesEngineEvents['poll.vote'];
  'message.reaction': [update: ReactionUpdate];
  'message.edit': [update: EditUpdate];
  'message.revoke': [update: RevokeUpdate];
}

export type EngineEventName = keyof EngineEvents;

export interface EngineIdentity {
  /** Own chat id (`<digits>@c.us`). */
  id: string;
  pushname: string;
}

export interface Engine
  extends
    GroupEngine,
    ChatEngine,
    ContactEngine,
    CallEngine,
    MessagesEngine,
    ActionsEngine,
    PresenceEngine {
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
  /** Link by phone number instead of QR; throws NOT_SUPPORTED where the engine cannot. */
  requestPairingCode(phoneNumber: string): Promise<string>;
  /** True when `memberId` is an admin of the group `groupId` (for `adminOnly` commands). */
  isGroupAdmin(groupId: string, memberId: string): Promise<boolean>;
  /**
   * A person's LID and phone as WhatsApp's own look-up gives them (`getContactLidAndPhone` in
   * whatsapp-web.js 1.34). `id` is a normalised `@c.us` or `@lid` id. Never throws for an unknown
   * user: `isRegistered: false`.
   */
  resolveContact(id: string): Promise<ContactInfo>;
  /**
   * Probes what the engine can still do on the WhatsApp Web build it runs (engine health,
   * src/engines/health.ts). Cheap: nothing is sent. Rejects when it cannot look (not connected,
   * a reload under way): no verdict. Engines without probes leave it out.
   */
  checkHealth?(): Promise<EngineProbe>;

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
