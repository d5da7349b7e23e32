/**
 * The vocabulary of the Engine port: the plain data engines emit and take. The port owns it; the
 * client layer re-exports what the public API needs (`src/client/types.ts`).
 */
import type { MessageKindContent, MessageKindData } from './ports/message-content.js';

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
export interface MessageData extends MessageKindData {
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
  /**
   * The people the message mentions (`@…` in its text), as chat ids (`<digits>@c.us`, or
   * `<digits>@lid` where WhatsApp addresses by LID); `[]` when none.
   */
  mentionedIds: string[];
  /** Display name the sender set, when known. */
  notifyName?: string;
  /** Media caption / file name / mime type as announced by the sender, when `hasMedia`. */
  media?: { mimetype: string; filename?: string; size?: number };
  /**
   * Who wrote it (in groups the author, else the chat; own messages: this account), with the
   * other half of the person's identity when known: `lid` and/or `phone` (`<digits>@c.us`).
   */
  sender: MessageSender;
  /** Posted in a channel (`@newsletter`). */
  isChannel: boolean;
  /** A status update (`status@broadcast`). */
  isStatus: boolean;
}

/** A message's sender: `id` as WhatsApp addressed it (`@c.us` or `@lid`), plus what is known. */
export interface MessageSender {
  id: string;
  /** `<digits>@lid`, when known. */
  lid?: string;
  /** `<digits>@c.us`, when known (a LID user's number is hidden unless they are a contact). */
  phone?: string;
  pushname?: string;
}

/** What `resolveContact` tells about a person (by phone number, `@c.us` or `@lid`). */
export interface ContactInfo {
  /** The id asked for, normalised (`<digits>@c.us` for numbers). */
  id: string;
  lid?: string;
  phone?: string;
  pushname?: string;
  /** False when WhatsApp knows no such user (nothing can be sent to it). */
  isRegistered: boolean;
}

/** Options of a text message (`sendTextMessage`). */
export interface TextOptions {
  linkPreview?: boolean;
  sendSeen?: boolean;
  mentions?: string[];
  quotedMessageId?: string;
}

/** Media as bytes, what engines receive. */
export interface MediaFile {
  data: Buffer;
  mimetype: string;
  filename?: string;
}

/** Content handed to an engine: media already resolved to bytes. */
export type EngineContent =
  | { kind: 'text'; text: string; options: TextOptions }
  | { kind: MediaKind; media: MediaFile; caption?: string; quotedMessageId?: string }
  | MessageKindContent;

/** Payload of `message.ack`. */
export interface AckUpdate {
  messageId: string;
  chatId: string;
  ack: Ack;
}
