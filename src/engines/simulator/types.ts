/** Public types of the simulator: its config, phones, groups and what a phone receives. */
import type { EngineConfig } from '../../config/schema.js';
import type { GroupOps, GroupEvents } from '../ports/groups.js';

/** Who may add a phone to groups directly (others get `invited`): WhatsApp's privacy setting. */
export type SimGroupAddPrivacy = 'everyone' | 'contacts' | 'nobody';

/** A group event as every member receives it (phones keep them in `groupEvents`). */
export type SimGroupEvent = {
  [E in keyof GroupEvents]: { event: E; data: GroupEvents[E][0] };
}[keyof GroupEvents];
import type { SimCall } from './calls.js';
import type { SimChatState } from './chats.js';
import type { SimPictureVisibility } from './contacts.js';
import type { LocationData, PollData } from '../ports/messages.js';
import type { SimPhoneActions } from './action-types.js';

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

/**
 * A location, contact cards or a poll a phone sends (`phone.send(chatId, { poll: ... })`).
 * Contacts are WhatsApp users by id (the card shows their number when the sender may see it) or
 * vCards; polls take 2-12 distinct options.
 */
export type SimKindContent =
  | { location: LocationData }
  | { contacts: Array<{ id: string } | { vcard: string }> }
  | { poll: { question: string; options: string[]; allowMultipleAnswers?: boolean } };

/** A message as received by a phone (in a private chat or a group it is in). */
export interface SimInboxMessage {
  /** Serialized id as returned to the sender (`true_<chat>_<HEX>`); any view of it resolves. */
  readonly id: string;
  /** Conversation on the receiver's side: the sender's id, or the group id. */
  readonly chatId: string;
  /** Sender account id (`<digits>@c.us`). */
  readonly author: string;
  readonly isGroup: boolean;
  /** `chat`, `image`, `video`, `audio`, `ptt`, `document`, `sticker`, `location`, `vcard`, ... */
  readonly type: string;
  /** Text, or the caption of a media message ('' when none). */
  readonly body: string;
  readonly caption?: string;
  readonly media?: { readonly data: Buffer; readonly mimetype: string; readonly filename?: string };
  readonly isForwarded: boolean;
  readonly quotedMessageId?: string;
  /** The people it mentions (chat ids); `[]` when none. */
  readonly mentionedIds: readonly string[];
  /** `type: 'location'`. */
  readonly location?: LocationData;
  /** `type: 'poll_creation'`. */
  readonly poll?: PollData;
  /** `type: 'vcard'` / `'multi_vcard'`: the cards as vCard text. */
  readonly vcards?: readonly string[];
  /** Unix seconds. */
  readonly timestamp: number;
  /** Current delivery state as seen by the sender (-1, 1, 2, 3); updated as acks progress. */
  readonly ack: number;
}

/** Options of a phone's `send`. */
export interface SimSendOptions {
  /** The message it replies to (quotes). */
  quotedMessageId?: string;
  /**
   * People it mentions in a text or caption (numbers, `@c.us` or `@lid` ids): receivers get them
   * as `mentionedIds`.
   */
  mentions?: readonly string[];
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
  /**
   * Saves a number as a contact (under `name`, what this account's chats and contacts show): a
   * LID-addressed phone's number becomes visible to this one, and so does a profile picture
   * shown to contacts only.
   */
  addContact(numberOrId: string, name?: string): void;
  /** Blocks a number: its private messages and calls no longer reach this account. */
  block(numberOrId: string): void;
  unblock(numberOrId: string): void;
  /** Sets (null: removes) the profile picture and who may see it (default `everyone`). */
  setProfilePicture(url: string | null, opts?: { visibleTo?: SimPictureVisibility }): void;
  /** Archives, pins or mutes one of this account's chats (a number, `@c.us`, `@g.us` id). */
  setChatFlags(chatId: string, state: SimChatState): void;
  /**
   * Calls a person (number, `@c.us` or `@lid`) or a group this phone is in: every linked device
   * of each callee gets a `call` event. The call rings until `end()` or a rejection.
   */
  call(to: string, opts?: { video?: boolean }): SimCall;
  /**
   * Send text or media to a person (`@c.us` or `@lid`), a group this phone is in (`@g.us`), a
   * channel it administers (`@newsletter`) or its status (`status@broadcast`).
   */
  send(
    chatId: string,
    content: string | SimMediaContent | SimKindContent,
    opts?: SimSendOptions,
  ): Promise<{ id: string }>;
  /**
   * Votes on a poll this phone can see (by the id its sender got, or any view of it): `options`
   * are option names, none retracts; single-answer polls take one. Everyone else in the chat
   * with a linked device gets `poll.vote`.
   */
  vote(pollMessageId: string, options: string[]): Promise<void>;
  /** The last messages this phone received (capped, see SIM_INBOX_LIMIT), oldest first. */
  readonly inbox: ReadonlyArray<SimInboxMessage>;
  /**
   * Group management as this phone (the same operations as the SDK's): create groups, add or
   * remove people (a bot's number included), change settings, join by invite code, leave. Members
   * get `group.*` events. Bare numbers are accepted for ids.
   */
  readonly groups: GroupOps;
  /** Who may add this phone to groups; others get the result `invited` (default `everyone`). */
  groupAdd: SimGroupAddPrivacy;
  /** Group events this phone saw as a member (capped like the inbox), oldest first. */
  readonly groupEvents: ReadonlyArray<SimGroupEvent>;
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
  description?: string;
  /** Only admins may change the subject and description. */
  infoAdminsOnly?: boolean;
  /** The creator, a member with the role `superadmin` (a number or `@c.us` id; made a member). */
  owner?: string;
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
  /** The subject. */
  name: string;
  /** Only admins can send (`settings.messagesAdminsOnly`). */
  adminsOnly: boolean;
  description: string;
  /** Only admins can change the subject and description (`settings.infoAdminsOnly`). */
  infoAdminsOnly: boolean;
  /** The creator's id (role `superadmin` while a member). */
  owner: string | undefined;
  /** Current invite link code, once an admin asked for one. */
  readonly inviteCode: string | undefined;
  /** People sent an invitation instead of being added. */
  readonly invited: ReadonlySet<string>;
  /** `lid`: members see each other by LID. */
  addressing: 'pn' | 'lid';
  readonly members: ReadonlySet<string>;
  readonly admins: ReadonlySet<string>;
  addMember(member: string, opts?: { admin?: boolean }): void;
  removeMember(member: string): void;
  setAdmin(member: string, admin: boolean): void;
}
