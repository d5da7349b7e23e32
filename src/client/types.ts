/** Plain data types shared by the SDK surface, the engines and the queue. */

/** Client states, exactly as the state table in DESIGN.md. */
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

/** Reasons carried by the `disconnected` event. */
export const DISCONNECT_REASONS = [
  'session_expired',
  'logout',
  'conflict',
  'connection_lost',
  'browser_crashed',
  'qr_timeout',
  'banned',
  'stopped',
] as const;
export type DisconnectReason = (typeof DISCONNECT_REASONS)[number];

/** Reasons after which the session is kept and the client reconnects by itself. */
export const RECOVERABLE_REASONS: ReadonlySet<DisconnectReason> = new Set([
  'connection_lost',
  'browser_crashed',
  'conflict',
]);

/** Delivery acknowledgement: -1 error, 0 pending, 1 server, 2 delivered, 3 read, 4 played. */
export type Ack = -1 | 0 | 1 | 2 | 3 | 4;
export const ACK = { ERROR: -1, PENDING: 0, SERVER: 1, DELIVERED: 2, READ: 3, PLAYED: 4 } as const;

export const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** A received or created message, as plain serialisable data (no engine object leaks out). */
export interface MessageData {
  /** WhatsApp serialized message id. */
  id: string;
  body: string;
  /** Sender: a contact id, or the group id for group messages (the member is `author`). */
  from: string;
  /** Recipient: the bot's own id for incoming messages, the target chat for own messages. */
  to: string;
  /** The conversation this message belongs to (`fromMe ? to : from`). */
  chatId: string;
  /** Unix time in seconds. */
  timestamp: number;
  hasMedia: boolean;
  isGroup: boolean;
  broadcast: boolean;
  hasQuotedMsg: boolean;
  fromMe: boolean;
  /** `chat`, `image`, `video`, `audio`, `ptt`, `document`, `sticker`, `location`, `vcard`, ... */
  type: string;
  ack: Ack;
  /** Sender inside a group; undefined in private chats. */
  author?: string;
  /** Id of the quoted message, when `hasQuotedMsg`. */
  quotedMessageId?: string;
  /** True when this message was forwarded. */
  isForwarded?: boolean;
  /** Display name the sender set, when known. */
  notifyName?: string;
  /** Media caption / file name / mime type as announced by the sender, when `hasMedia`. */
  media?: { mimetype: string; filename?: string; size?: number };
}

/** What `downloadMedia()` resolves to. */
export interface MediaData {
  /** Base64-encoded bytes. */
  data: string;
  mimetype: string;
  filename: string;
}

/** Options of `sendTextMessage`. */
export interface TextOptions {
  linkPreview?: boolean;
  sendSeen?: boolean;
  mentions?: string[];
  quotedMessageId?: string;
}

/** Where media comes from. Exactly one source. */
export type MediaSource =
  | { url: string; path?: never; buffer?: never }
  | { path: string; url?: never; buffer?: never }
  | { buffer: Uint8Array; mimetype: string; url?: never; path?: never };

export type ImageInput = MediaSource & { caption?: string };
export interface VideoInput {
  url: string;
  caption?: string;
}
export interface AudioInput {
  url: string;
}
export interface DocumentInput {
  url: string;
  filename: string;
  caption?: string;
}
export interface StickerInput {
  url: string;
}

export interface SendTextInput {
  to: string;
  text: string;
  options?: TextOptions;
}
export interface SendImageInput {
  to: string;
  image: ImageInput;
}
export interface SendVideoInput {
  to: string;
  video: VideoInput;
}
export interface SendAudioInput {
  to: string;
  audio: AudioInput;
}
export interface SendDocumentInput {
  to: string;
  document: DocumentInput;
}
export interface SendStickerInput {
  to: string;
  sticker: StickerInput;
}

/** The result every send resolves to. */
export interface SendResult {
  /** WhatsApp id of the sent message. */
  id: string;
  /** Id under which the outbound queue tracked this send. */
  trackingId: string;
}

/** Media as bytes, what engines receive. */
export interface MediaFile {
  data: Buffer;
  mimetype: string;
  filename?: string;
}

/** Validated, normalised outgoing content: what the queue carries before media is fetched. */
export type OutgoingContent =
  | { kind: 'text'; text: string; options: TextOptions }
  | {
      kind: MediaKind;
      source: { url: string } | { path: string } | { buffer: Buffer; mimetype: string };
      caption?: string;
      filename?: string;
    }
  | { kind: 'forward'; messageId: string };

/** Content handed to an engine: media already resolved to bytes. */
export type EngineContent =
  | { kind: 'text'; text: string; options: TextOptions }
  | { kind: MediaKind; media: MediaFile; caption?: string };

/** What `client.info()` returns. */
export interface ClientInfo {
  name: string;
  state: ClientState;
  engine: string;
  me: { id: string; pushname: string } | null;
  /** ISO time of the last state change. */
  since: string;
  queue: { pending: number; running: number };
  lastDisconnect: { reason: DisconnectReason; at: string } | null;
}

/** The session object of `authenticated`: never secrets. */
export interface AuthenticatedSession {
  client: string;
  at: string;
  restored: boolean;
  me: { id: string; pushname: string } | null;
}

/** Payload of `message.ack`. */
export interface AckUpdate {
  messageId: string;
  chatId: string;
  ack: Ack;
}
