/** Public types of the simulator: its config, phones, groups and what a phone receives. */
import type { EngineConfig } from '../../config/schema.js';
import type { SimPhoneActions } from './actions.js';

/** The validated `engine` config section when `type` is `simulator`. */
export type SimulatorEngineConfig = Extract<EngineConfig, { type: 'simulator' }>;

/** Media a phone sends: its bytes plus what WhatsApp announces with them. */
export interface SimMediaContent {
  /** The bytes, or base64 text (what `message.downloadMedia()` returns as `data`). */
  data: Buffer | Uint8Array | string;
  mimetype: string;
  filename?: string;
  caption?: string;
  /** Message type; derived from the MIME type when absent (`image`, `video`, `audio`, `document`). */
  type?: string;
}

/** A message as received by a phone (in a private chat or a group it is in). */
export interface SimInboxMessage {
  /** Serialized id as returned to the sender (`true_<chat>_<HEX>`); any view of it resolves. */
  readonly id: string;
  /** Conversation on the receiver's side: the sender's id, or the group id. */
  readonly chatId: string;
  /** Sender account id (`<digits>@c.us`). */
  readonly author: string;
  readonly isGroup: boolean;
  /** `chat`, `image`, `video`, `audio`, `ptt`, `document`, `sticker`. */
  readonly type: string;
  /** Text, or the caption of a media message ('' when none). */
  readonly body: string;
  readonly caption?: string;
  readonly media?: { readonly data: Buffer; readonly mimetype: string; readonly filename?: string };
  readonly isForwarded: boolean;
  readonly quotedMessageId?: string;
  readonly mentions?: readonly string[];
  /** Unix seconds. */
  readonly timestamp: number;
  /** Current delivery state as seen by the sender (-1, 1, 2, 3); updated as acks progress. */
  readonly ack: number;
}

export interface SimPhone extends SimPhoneActions {
  /** Digits only. */
  readonly number: string;
  /** `<digits>@c.us`. */
  readonly id: string;
  readonly pushname: string;
  /** `<digits>@lid`: the phone's linked identity. */
  readonly lid: string;
  /** True when its messages arrive by LID and its number is hidden from non-contacts. */
  lidAddressed: boolean;
  /** Saves a number as a contact: a LID-addressed phone's number becomes visible to this one. */
  addContact(numberOrId: string): void;
  /**
   * Send text or media to a person (`@c.us` or `@lid`), a group this phone is in (`@g.us`), a
   * channel it administers (`@newsletter`) or its status (`status@broadcast`).
   */
  send(
    chatId: string,
    content: string | SimMediaContent,
    opts?: { quotedMessageId?: string },
  ): Promise<{ id: string }>;
  /** The last messages this phone received (capped, see SIM_INBOX_LIMIT), oldest first. */
  readonly inbox: ReadonlyArray<SimInboxMessage>;
  /**
   * First inbox message matching `predicate`: one already received, else the next to arrive.
   * Rejects with a TIMEOUT WakitError after `timeoutMs` (default 5,000).
   */
  waitForMessage(
    predicate?: (message: SimInboxMessage) => boolean,
    timeoutMs?: number,
  ): Promise<SimInboxMessage>;
}

export interface SimGroupSpec {
  /** Group id, with or without `@g.us`. */
  id: string;
  name?: string;
  /** Numbers or `@c.us` ids; a linked bot is a member when its number is listed. */
  members: string[];
  /** Subset of members (listed admins that are not members are added as members). */
  admins?: string[];
  /** Only admins may send ("only admins can send messages"). */
  adminsOnly?: boolean;
  /** `lid`: members see each other by LID (WhatsApp's LID addressing mode for groups). */
  addressing?: 'pn' | 'lid';
}

export interface SimChannelSpec {
  /** Channel id, with or without `@newsletter`. */
  id: string;
  name?: string;
  /** Numbers that may post (a linked bot may post when its number is listed). */
  admins?: string[];
  /** Numbers that receive the posts. */
  followers?: string[];
}

export interface SimChannel {
  readonly id: string;
  name: string;
  readonly admins: ReadonlySet<string>;
  readonly followers: ReadonlySet<string>;
  follow(number: string): void;
}

export interface SimGroup {
  readonly id: string;
  name: string;
  adminsOnly: boolean;
  /** `lid`: members see each other by LID. */
  addressing: 'pn' | 'lid';
  readonly members: ReadonlySet<string>;
  readonly admins: ReadonlySet<string>;
  addMember(member: string, opts?: { admin?: boolean }): void;
  removeMember(member: string): void;
  setAdmin(member: string, admin: boolean): void;
}
