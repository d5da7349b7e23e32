/** Plain data types of the SDK surface; the engine vocabulary comes from the Engine port. */
import type { EngineHealth } from '../engines/health.js';
import type { GovernorInfo } from '../governor/governor-info.js';
import type { ReconnectInfo } from './connection/reconnect-schedule.js';
import type { DisconnectReason, MediaKind, TextOptions } from '../engines/types.js';
import type { MessageKindContent } from '../engines/ports/messages.js';

export type {
  ContactCard,
  ContactCardInput,
  LocationData,
  MessageKindData,
  PollData,
  PollVote,
} from '../engines/ports/messages.js';
import type { ChatState } from '../engines/ports/presence.js';

export {
  ACK,
  DISCONNECT_REASONS,
  MEDIA_KINDS,
  RECOVERABLE_REASONS,
  type Ack,
  type AckUpdate,
  type ContactInfo,
  type DisconnectReason,
  type EngineContent,
  type MediaFile,
  type MediaKind,
  type MessageData,
  type MessageSender,
  type TextOptions,
} from '../engines/types.js';

/** Client states (docs/clients.md and docs/engines.md describe them). */
export const CLIENT_STATES = [
  'STOPPED',
  'STARTING',
  'SCAN_QR',
  'AUTHENTICATED',
  'READY',
  'DISCONNECTED',
  'FAILED',
] as const;
export type ClientState = (typeof CLIENT_STATES)[number];

/** What `downloadMedia()` resolves to. */
export interface MediaData {
  /** Base64-encoded bytes. */
  data: string;
  mimetype: string;
  filename: string;
}

/** The result every send resolves to. */
export interface SendResult {
  /** WhatsApp id of the sent message. */
  id: string;
  /** Id under which the outbound queue tracked this send. */
  trackingId: string;
}

/** Validated, normalised outgoing content: what the queue carries before media is fetched. */
export type OutgoingContent =
  | { kind: 'text'; text: string; options: TextOptions }
  | {
      kind: MediaKind;
      /** `mimetype` with `url` or `path`: the declared type (checked when the media is fetched). */
      source:
        | { url: string; mimetype?: string }
        | { path: string; mimetype?: string }
        | { buffer: Buffer; mimetype: string };
      caption?: string;
      filename?: string;
      quotedMessageId?: string;
    }
  | { kind: 'forward'; messageId: string }
  | MessageKindContent
  | ActionContent;

/**
 * Actions on existing messages and presence (docs/actions.md): queued and journaled like sends,
 * with lighter pacing for reactions and presence (docs/queue.md). They carry no media.
 */
export type ActionContent =
  | { kind: 'reaction'; messageId: string; emoji: string }
  | { kind: 'edit'; messageId: string; text: string }
  | { kind: 'delete'; messageId: string; forEveryone: boolean }
  | { kind: 'seen' }
  | { kind: 'presence'; state: ChatState }
  | { kind: 'online'; online: boolean };

/** What `client.info()` returns. */
export interface ClientInfo {
  name: string;
  state: ClientState;
  engine: string;
  me: { id: string; pushname: string } | null;
  /** ISO time of the last state change. */
  since: string;
  /** `held`: sends waiting for a retry after ENGINE_INCOMPATIBLE. */
  queue: { pending: number; held: number; running: number };
  lastDisconnect: { reason: DisconnectReason; at: string } | null;
  /**
   * While reconnecting: the cause on the reconnect ladder (`network`, `whatsapp_unreachable`, …),
   * whether it is retried until cured, the attempt and when the next one is due; else null.
   */
  reconnect: ReconnectInfo | null;
  /** The last engine health check (null before the first, or for engines without probes). */
  health: EngineHealth | null;
  /** The send governor's budgets, use and restriction of this account (null when `off`). */
  governor: GovernorInfo | null;
}

/** The session object of `authenticated`: never secrets. */
export interface AuthenticatedSession {
  client: string;
  at: string;
  restored: boolean;
  me: { id: string; pushname: string } | null;
}
