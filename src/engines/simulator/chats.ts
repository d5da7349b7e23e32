/**
 * The chats of an account of the virtual network: each conversation's history (own messages and
 * received ones), its unread count and its archived / pinned / muted state. The network records
 * into it as messages are posted and delivered; the engine renders it from its account's view.
 */
import { WakitError } from '../../errors/index.js';
import type { Ack, MessageData } from '../types.js';
import type { ChatData, FetchMessagesOptions, LastMessageSummary } from '../ports/chats.js';
import type { SimAccount, SimRecord } from './account.js';
import { GROUP_SUFFIX, LID_SUFFIX, stanzaOf } from './ids.js';
import { incomingMessage, ownMessage } from './messages.js';

/** Messages kept per chat; older ones are forgotten (the inbound benchmark pushes millions). */
export const SIM_CHAT_HISTORY_LIMIT = 1_000;

interface Entry {
  readonly record: SimRecord;
  readonly sender: SimAccount;
}

/** What can be set on a chat from the phone (`phone.setChatFlags`). */
export interface SimChatState {
  archived?: boolean;
  pinned?: boolean;
  muted?: boolean;
}

export class SimChat {
  private entries: Entry[] = [];
  unreadCount = 0;
  /** Unix seconds of the last message. */
  timestamp = 0;
  archived = false;
  pinned = false;
  muted = false;

  constructor(readonly key: string) {}

  add(entry: Entry): void {
    this.entries.push(entry);
    if (this.entries.length > 2 * SIM_CHAT_HISTORY_LIMIT) {
      this.entries = this.entries.slice(-SIM_CHAT_HISTORY_LIMIT);
    }
    this.timestamp = entry.record.timestamp;
  }

  /** Oldest first. */
  history(): readonly Entry[] {
    return this.entries.length > SIM_CHAT_HISTORY_LIMIT
      ? this.entries.slice(-SIM_CHAT_HISTORY_LIMIT)
      : this.entries;
  }
}

/**
 * One account's chats, keyed by the other person's `@c.us` id (whether they write by number or
 * by LID, it is one conversation) or by the group / channel id. Status updates are not chats.
 */
export class SimChats {
  private readonly chats = new Map<string, SimChat>();

  private chat(key: string): SimChat {
    let chat = this.chats.get(key);
    if (!chat) {
      chat = new SimChat(key);
      this.chats.set(key, chat);
    }
    return chat;
  }

  /** An own message (from the phone or a linked device): as on WhatsApp, the chat is read now. */
  sent(key: string, record: SimRecord, sender: SimAccount): void {
    if (key === STATUS) return;
    const chat = this.chat(key);
    chat.add({ record, sender });
    chat.unreadCount = 0;
  }

  /** A message delivered to this account: unread until seen; an archived chat comes back. */
  received(record: SimRecord, sender: SimAccount): void {
    if (record.chatId === STATUS) return;
    const chat = this.chat(record.chatId); // the sender's @c.us id in private chats
    chat.add({ record, sender });
    chat.unreadCount += 1;
    chat.archived = false;
  }

  find(key: string): SimChat | undefined {
    return this.chats.get(key);
  }

  all(): IterableIterator<SimChat> {
    return this.chats.values();
  }

  /** Marks a chat read (what "seen" does); false when there is no such chat. */
  markSeen(key: string): boolean {
    const chat = this.chats.get(key);
    if (!chat) return false;
    chat.unreadCount = 0;
    return true;
  }

  /** Archives, pins or mutes a chat (creating it when the account had none with that id). */
  setState(key: string, state: SimChatState): void {
    const chat = this.chat(key);
    if (state.archived !== undefined) chat.archived = state.archived;
    if (state.pinned !== undefined) chat.pinned = state.pinned;
    if (state.muted !== undefined) chat.muted = state.muted;
  }
}

const STATUS = 'status@broadcast';

/** What rendering chats needs of the network. */
export interface SimChatDirectory {
  person(id: string): SimAccount | undefined;
  groupName(id: string): string | undefined;
  channelName(id: string): string | undefined;
  /** Ids of the groups `accountId` is a member of. */
  groupsOf(accountId: string): Iterable<string>;
}

/** The key of a chat id for `viewer`'s chats: a person's `@c.us` id, else the id itself. */
export function chatKey(directory: SimChatDirectory, chatId: string): string | undefined {
  if (chatId.endsWith('@c.us') || chatId.endsWith(LID_SUFFIX)) {
    return directory.person(chatId)?.id;
  }
  return chatId;
}

/** A message of the history as `viewer` sees it. */
function render(viewer: SimAccount, entry: Entry): MessageData {
  if (entry.sender === viewer) {
    return { ...ownMessage(entry.record, viewer), ack: entry.record.ack as Ack };
  }
  return incomingMessage(entry.record, viewer.id, entry.sender, viewer);
}

function summary(message: MessageData): LastMessageSummary {
  const last: LastMessageSummary = {
    id: message.id,
    body: message.body,
    type: message.type,
    fromMe: message.fromMe,
    timestamp: message.timestamp,
    hasMedia: message.hasMedia,
  };
  if (message.author) last.author = message.author;
  return last;
}

function describe(
  directory: SimChatDirectory,
  viewer: SimAccount,
  key: string,
  chat: SimChat | undefined,
): ChatData {
  let id = key;
  let name: string;
  const isGroup = key.endsWith(GROUP_SUFFIX);
  if (isGroup) name = directory.groupName(key) ?? key;
  else if (key.endsWith('@newsletter')) name = directory.channelName(key) ?? key;
  else {
    const other = directory.person(key);
    // A LID-addressed person's chat is their LID chat, as their messages arrive by LID.
    if (other?.lidAddressed) id = other.lid;
    name =
      (other && viewer.book.names.get(other.number)) ??
      other?.pushname ??
      `+${key.slice(0, -'@c.us'.length)}`;
  }
  const data: ChatData = {
    id,
    name,
    isGroup,
    unreadCount: chat?.unreadCount ?? 0,
    timestamp: chat?.timestamp ?? 0,
    archived: chat?.archived ?? false,
    pinned: chat?.pinned ?? false,
    muted: chat?.muted ?? false,
  };
  const last = chat?.history().at(-1);
  if (last) data.lastMessage = summary(render(viewer, last));
  return data;
}

/** Every chat of `viewer`: conversations it has history in, and the groups it is a member of. */
export function listChats(directory: SimChatDirectory, viewer: SimAccount): ChatData[] {
  const out: ChatData[] = [];
  for (const chat of viewer.chats.all()) out.push(describe(directory, viewer, chat.key, chat));
  for (const group of directory.groupsOf(viewer.id)) {
    if (!viewer.chats.find(group)) out.push(describe(directory, viewer, group, undefined));
  }
  return out;
}

function requireChat(
  directory: SimChatDirectory,
  viewer: SimAccount,
  chatId: string,
): { key: string; chat: SimChat | undefined } {
  const key = chatKey(directory, chatId);
  const chat = key === undefined ? undefined : viewer.chats.find(key);
  if (key !== undefined && (chat || [...directory.groupsOf(viewer.id)].includes(key))) {
    return { key, chat };
  }
  throw new WakitError(
    'CHAT_NOT_FOUND',
    key === undefined
      ? `${chatId} is not on WhatsApp`
      : `this account has no chat with ${chatId} (no message exchanged yet)`,
    { details: { chatId } },
  );
}

export function getChat(directory: SimChatDirectory, viewer: SimAccount, chatId: string): ChatData {
  const { key, chat } = requireChat(directory, viewer, chatId);
  return describe(directory, viewer, key, chat);
}

/** WhatsApp pins 3 chats at most. */
export const MAX_PINNED_CHATS = 3;

/**
 * Pins or unpins a chat of `viewer`; the new state, as whatsapp-web.js answers it: pinning a
 * pinned chat is true, pinning with 3 pinned already is false (nothing changes), unpinning false.
 */
export function pinChat(
  directory: SimChatDirectory,
  viewer: SimAccount,
  chatId: string,
  pin: boolean,
): boolean {
  const { key, chat } = requireChat(directory, viewer, chatId);
  if (!pin) {
    if (chat?.pinned) viewer.chats.setState(key, { pinned: false });
    return false;
  }
  if (chat?.pinned) return true;
  const pinned = [...viewer.chats.all()].filter((other) => other.pinned).length;
  if (pinned >= MAX_PINNED_CHATS) return false;
  viewer.chats.setState(key, { pinned: true });
  return true;
}

/** Newest first: the `limit` latest messages, or the `limit` before the message `before`. */
export function fetchMessages(
  directory: SimChatDirectory,
  viewer: SimAccount,
  chatId: string,
  options: FetchMessagesOptions,
): MessageData[] {
  const { chat } = requireChat(directory, viewer, chatId);
  const history = chat?.history() ?? [];
  let end = history.length;
  if (options.before !== undefined) {
    const stanza = stanzaOf(options.before);
    end = history.findIndex((entry) => entry.record.stanza === stanza);
    if (end < 0) {
      throw new WakitError(
        'MESSAGE_NOT_FOUND',
        `message ${options.before} is not in the chat ${chatId}`,
        { details: { chatId, messageId: options.before } },
      );
    }
  }
  const out: MessageData[] = [];
  for (let i = end - 1; i >= 0 && out.length < options.limit; i--) {
    out.push(render(viewer, history[i]));
  }
  return out;
}
