/**
 * The slice of whatsapp-web.js 1.34 (and of puppeteer, through it) that the wwebjs engine uses,
 * described structurally so that tests can inject a faithful fake (test/helpers/fake-wwebjs-client.ts).
 * Names and shapes follow node_modules/whatsapp-web.js/src/Client.js, structures/Message.js,
 * structures/MessageMedia.js and index.d.ts.
 */
import type { z } from 'zod';
import type { engineSchema } from '../../config/schema.js';

/** The `whatsapp-web.js` branch of the `engine` config section, after defaults. */
export type WwebjsEngineConfig = Extract<
  z.output<typeof engineSchema>,
  { type: 'whatsapp-web.js' }
>;

/** whatsapp-web.js serialized ids (`ContactId`, `MessageId`, ...): only `_serialized` is relied on. */
export interface SerializedId {
  _serialized: string;
}

/**
 * A WhatsApp Web message key as it crosses to Node by JSON: own fields only, so `_serialized` may
 * be missing on builds that renamed it (serialized-id.ts rebuilds it from the parts).
 */
export interface MessageKeyLike {
  _serialized?: string;
  fromMe?: boolean;
  remote?: string | SerializedId;
  id?: string;
  participant?: string | SerializedId;
}

/** `MessageMedia`: base64 data plus MIME type and optional file name. */
export interface MessageMediaLike {
  mimetype: string;
  data: string;
  filename?: string | null;
  filesize?: number | null;
}

/** `Message` (structures/Message.js). */
export interface MessageLike {
  id: SerializedId & { fromMe?: boolean; remote?: string; id?: string };
  body: string;
  type: string;
  timestamp: number;
  from: string;
  to: string;
  author?: string;
  ack: number;
  hasMedia: boolean;
  fromMe: boolean;
  hasQuotedMsg: boolean;
  broadcast?: boolean;
  isForwarded?: boolean;
  isStatus?: boolean;
  /** structures/Message.js:228 `data.mentionedJidList || []`: ids, strings or wids (`{ _serialized }`). */
  mentionedIds?: unknown[];
  /** Raw model from WhatsApp Web: `notifyName`, `quotedStanzaID`, `mimetype`, `filename`, `size`... */
  _data?: Record<string, unknown>;
  forward(chat: string): Promise<void>;
  downloadMedia(): Promise<MessageMediaLike | undefined>;
  /** `type: 'location'` (structures/Message.js:173): a `Location` built from `lat`, `lng`, `loc`. */
  location?: {
    latitude: number | string;
    longitude: number | string;
    name?: string;
    address?: string;
    url?: string;
  };
  /** `vcard` / `multi_vcard` (structures/Message.js:193). */
  vCards?: string[];
  /** `poll_creation` (structures/Message.js:329-335). */
  pollName?: string;
  pollOptions?: Array<{ name: string; localId: number }>;
  allowMultipleAnswers?: boolean;
  /** structures/Message.js:431: resolves to undefined when nothing is quoted. */
  getQuotedMessage?(): Promise<MessageLike | undefined>;
}

/** `PollVote` (structures/PollVote.js) as `vote_update` emits it. */
export interface PollVoteLike {
  /** `data.sender`: a wid (`{ _serialized }`) from the page, or its serialized string. */
  voter: SerializedId | string;
  selectedOptions: Array<{ name?: string; localId: number }>;
  /** `senderTimestampMs`. */
  interractedAtTs?: number;
  parentMessage?: MessageLike;
  parentMsgKey?: MessageKeyLike;
}

export interface GroupParticipantLike {
  id: SerializedId;
  isAdmin: boolean;
  isSuperAdmin: boolean;
}

/** `Chat` / `GroupChat` (structures/Chat.js, GroupChat.js). */
export interface ChatLike {
  id: SerializedId;
  isGroup: boolean;
  /** Group "only admins can send" (`groupMetadata.announce`). */
  isReadOnly?: boolean;
  participants?: GroupParticipantLike[];
  lastMessage?: MessageLike;
  /** `formattedTitle`: the group subject, the saved name, the pushname or the number. */
  name?: string;
  unreadCount?: number;
  /** `t`: unix seconds of the last activity (undefined for a chat WhatsApp Web just created). */
  timestamp?: number;
  /** `archive`. */
  archived?: boolean;
  /** `!!pin`. */
  pinned?: boolean;
  /** `mute.expiration !== 0`. */
  isMuted?: boolean;
  /**
   * Chat.js:203: the chat's messages oldest first; with `limit`, earlier ones are loaded until
   * there are that many (or no more), then the latest `limit` are kept.
   */
  fetchMessages?(searchOptions: { limit?: number; fromMe?: boolean }): Promise<MessageLike[]>;
}

/**
 * `Contact` (structures/Contact.js, built by ContactFactory from `WWebJS.getContactModel`); also
 * what a contact card is sent from.
 */
export interface ContactLike {
  /** A LID contact whose phone is known gets its phone id here (Injected/Utils.js:1014). */
  id: SerializedId;
  /** `userid`: the digits. */
  number?: string | null;
  name?: string | null;
  pushname?: string | null;
  isBusiness?: boolean;
  isMe?: boolean;
  isUser?: boolean;
  isGroup?: boolean;
  isWAContact?: boolean;
  isMyContact?: boolean;
  isBlocked?: boolean;
  /** Contact.js: resolve to false for groups, true otherwise. */
  block?(): Promise<boolean>;
  unblock?(): Promise<boolean>;
}

/** `Call` (structures/Call.js), emitted as the client's `call` event (Events.INCOMING_CALL). */
export interface CallLike {
  id: string;
  /** `peerJid`: who called. */
  from: string;
  /** `offerTime`, unix seconds. */
  timestamp: number;
  isVideo?: boolean;
  isGroup?: boolean;
  /** `outgoing`: a call this account placed. */
  fromMe?: boolean;
  /** `WWebJS.rejectCall(peerJid, id)` (Injected/Utils.js:1265). */
  reject(): Promise<unknown>;
}

/** The bits of puppeteer's `Browser` the engine watches. */
export interface BrowserLike {
  isConnected(): boolean;
  process(): { pid?: number } | null;
  on(event: 'disconnected', listener: () => void): unknown;
  off?(event: 'disconnected', listener: () => void): unknown;
}

/** The bits of puppeteer's `Page` the engine watches. */
export interface PageLike {
  on(event: 'error' | 'close', listener: (error?: Error) => void): unknown;
  /** Runs code in WhatsApp Web (the compat layer and health probes). */
  evaluate?(fn: unknown, ...args: unknown[]): Promise<unknown>;
  off?(event: 'error' | 'close', listener: (error?: Error) => void): unknown;
}

/** `MessageSendOptions` keys the engine uses. */
export interface SendOptionsLike {
  caption?: string;
  quotedMessageId?: string;
  mentions?: string[];
  linkPreview?: boolean;
  sendSeen?: boolean;
  sendMediaAsSticker?: boolean;
  sendMediaAsDocument?: boolean;
  /** Client.js:1362: a text that is a vCard is sent as a contact card (default true). */
  parseVCards?: boolean;
  /** Client.js:1375: fields spread into the message model last (Injected/Utils.js:453). */
  extra?: Record<string, unknown>;
}

/** `Client` (src/Client.js): an EventEmitter with these methods. */
export interface ClientLike {
  info?: { wid: SerializedId; pushname: string };
  pupBrowser: BrowserLike | null;
  pupPage: PageLike | null;
  /** Client.js:115: loads whatsapp-web.js's code into the page (again after every navigation). */
  inject?(...args: unknown[]): Promise<unknown>;
  initialize(): Promise<void>;
  destroy(): Promise<void>;
  logout(): Promise<void>;
  sendMessage(
    chatId: string,
    content: string | MessageMediaLike | object,
    options?: SendOptionsLike,
  ): Promise<MessageLike | undefined | null>;
  getMessageById(messageId: string): Promise<MessageLike | null>;
  getChatById(chatId: string): Promise<ChatLike | undefined>;
  getNumberId(number: string): Promise<SerializedId | null>;
  requestPairingCode(phoneNumber: string, showNotification?: boolean): Promise<string>;
  /**
   * Client.js:3307: `(userIds: string | string[]) → Array<{ lid?: string, pn?: string }>`, each
   * from `WWebJS.enforceLidAndPnRetrieval` (Injected/Utils.js:1694): both `undefined` when
   * WhatsApp knows no such user.
   */
  getContactLidAndPhone(userIds: string[]): Promise<Array<{ lid?: string; pn?: string }>>;
  /** Client.js:1738: a Contact (WhatsApp Web's `Contact.find` makes one for any id). */
  getContactById(contactId: string): Promise<ContactLike>;
  /** Client.js:1668: every chat of WhatsApp Web's Chat collection. */
  getChats(): Promise<ChatLike[]>;
  /** Client.js:2035/2062 (1.34): the new pin state (false when 3 chats are pinned already). */
  pinChat?(chatId: string): Promise<boolean>;
  unpinChat?(chatId: string): Promise<boolean>;
  /** Client.js:1725: every contact model WhatsApp Web holds (people, groups, itself). */
  getContacts(): Promise<ContactLike[]>;
  /** Client.js:2145: the `eurl`, or undefined when there is none or privacy hides it. */
  getProfilePicUrl(contactId: string): Promise<string | undefined>;
  // EventEmitter's own signature, so that the real Client (and the fake) fit.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  removeAllListeners(event?: string): unknown;
}

/** Options the engine passes to `new Client(options)`. */
export interface WwebjsClientOptions {
  authStrategy: unknown;
  puppeteer: Record<string, unknown>;
  authTimeoutMs: number;
  qrMaxRetries: number;
  takeoverOnConflict: boolean;
  webVersion?: string;
  webVersionCache: Record<string, unknown>;
  userAgent?: string;
}

export type WwebjsClientFactory = (options: WwebjsClientOptions) => ClientLike;

/** RemoteAuth's store contract (index.d.ts `Store`). */
export interface RemoteAuthStore {
  sessionExists(options: { session: string }): Promise<boolean>;
  save(options: { session: string }): Promise<void>;
  extract(options: { session: string; path: string }): Promise<void>;
  delete(options: { session: string }): Promise<void>;
}

/** Everything the engine takes from the whatsapp-web.js module; injected in tests. */
export interface WwebjsBindings {
  createClient: WwebjsClientFactory;
  createLocalAuth(options: { clientId: string; dataPath: string }): unknown;
  createRemoteAuth(options: {
    clientId: string;
    dataPath: string;
    store: RemoteAuthStore;
    backupSyncIntervalMs: number;
  }): unknown;
  createMedia(mimetype: string, base64: string, filename?: string): MessageMediaLike;
  /** `new Location(latitude, longitude, { name, address })` (structures/Location.js). */
  createLocation(latitude: number, longitude: number, options: LocationOptionsLike): object;
  /** `new Poll(question, options, { allowMultipleAnswers })` (structures/Poll.js). */
  createPoll(question: string, options: string[], send: { allowMultipleAnswers: boolean }): object;
}

export interface LocationOptionsLike {
  name?: string;
  address?: string;
}
