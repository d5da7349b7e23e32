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
  parentMsgKey?: SerializedId & { remote?: unknown };
}

/** `Contact` (structures/Contact.js): what a contact card is sent from. */
export interface ContactLike {
  id?: SerializedId;
  number?: string | null;
  name?: string | null;
  pushname?: string | null;
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
  /** Client.js:1738; `Contact.pushname` (structures/Contact.js:61). */
  getContactById(contactId: string): Promise<ContactLike>;
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
