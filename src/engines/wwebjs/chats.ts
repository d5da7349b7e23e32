/**
 * Chats on whatsapp-web.js 1.34: `client.getChats()`, `getChatById()` and `chat.fetchMessages()`
 * (Client.js:1668/1693, structures/Chat.js), mapped to plain data and our error codes.
 */
import { WakitError } from '../../errors/index.js';
import type { MessageData } from '../types.js';
import type {
  ChatData,
  ChatOps,
  FetchMessagesOptions,
  LastMessageSummary,
} from '../ports/chats.js';
import type { Attempt } from './attempt.js';
import { mapSendError } from './map-errors.js';
import { toMessageData } from './map-message.js';
import type { ChatLike, ClientLike, MessageLike } from './types.js';

/** Chats that are conversations (not status@broadcast, broadcast lists or anything else). */
const CONVERSATION = /@(c\.us|lid|g\.us|newsletter)$/;

/** `fetchMessages` loads at most this many to find `before` (WhatsApp Web keeps them in memory). */
export const MAX_SCAN = 5_000;

function summary(message: MessageLike, meId: string | undefined): LastMessageSummary {
  const data = toMessageData(message, meId);
  const last: LastMessageSummary = {
    id: data.id,
    body: data.body,
    type: data.type,
    fromMe: data.fromMe,
    timestamp: data.timestamp,
    hasMedia: data.hasMedia,
  };
  if (data.author) last.author = data.author;
  return last;
}

/** A whatsapp-web.js Chat as plain data. */
export function toChatData(chat: ChatLike, meId?: string): ChatData {
  const id = chat.id._serialized;
  const data: ChatData = {
    id,
    name: typeof chat.name === 'string' && chat.name ? chat.name : (id.split('@')[0] ?? id),
    isGroup: Boolean(chat.isGroup),
    unreadCount:
      typeof chat.unreadCount === 'number' && chat.unreadCount > 0 ? chat.unreadCount : 0,
    timestamp: typeof chat.timestamp === 'number' ? chat.timestamp : 0,
  };
  if (typeof chat.archived === 'boolean') data.archived = chat.archived;
  if (typeof chat.pinned === 'boolean') data.pinned = chat.pinned;
  if (typeof chat.isMuted === 'boolean') data.muted = chat.isMuted;
  if (chat.lastMessage) data.lastMessage = summary(chat.lastMessage, meId);
  return data;
}

export async function getChats(client: ClientLike, meId?: string): Promise<ChatData[]> {
  let chats: ChatLike[];
  try {
    chats = await client.getChats();
  } catch (error) {
    throw mapSendError(error, '*');
  }
  return chats
    .filter((chat) => CONVERSATION.test(chat.id._serialized))
    .map((c) => toChatData(c, meId));
}

/**
 * `getChatById` creates an empty chat for any registered person (`findOrCreateLatestChat`): a
 * person's chat without a message or activity counts as no chat (CHAT_NOT_FOUND), as in the
 * simulator; a group the account is in always has one.
 */
async function findChat(client: ClientLike, chatId: string): Promise<ChatLike> {
  let chat: ChatLike | undefined;
  try {
    chat = await client.getChatById(chatId);
  } catch (error) {
    throw mapSendError(error, chatId);
  }
  if (!chat || (!chat.isGroup && !chat.lastMessage && !chat.timestamp)) {
    throw new WakitError('CHAT_NOT_FOUND', `This account has no chat with ${chatId}`, {
      details: { chatId },
    });
  }
  return chat;
}

export async function getChat(client: ClientLike, chatId: string, meId?: string) {
  return toChatData(await findChat(client, chatId), meId);
}

/**
 * `client.pinChat` / `unpinChat` (Client.js:2035/2062, what `Chat.pin()` calls): WhatsApp Web's
 * `Cmd.pinChat(chat, pin)`; pinning answers false when the 3rd chat of the sorted collection is
 * pinned already (3 at most), true when this one is; unpinning answers false.
 */
export async function pinChat(client: ClientLike, chatId: string, pin: boolean): Promise<boolean> {
  await findChat(client, chatId);
  const call = pin ? client.pinChat?.bind(client) : client.unpinChat?.bind(client);
  if (!call) throw new WakitError('ENGINE_ERROR', 'this whatsapp-web.js Client cannot pin chats');
  try {
    return await call(chatId);
  } catch (error) {
    throw mapSendError(error, chatId);
  }
}

/**
 * The latest `limit` messages of a chat, oldest first. `fetchMessages({ limit })` loads earlier
 * messages until `limit` are in memory, but when more are, it sorts them by `t` with
 * `a.t > b.t ? 1 : -1` and keeps the last `limit` (structures/Chat.js:222-225): messages of the
 * same second come out reversed and the newest can be cut off (seen on the WhatsApp Web double:
 * a reply sent in the second of the message it answers went missing). So when the window is full
 * the chat's messages are read again without `limit` (no sort: WhatsApp Web's own order).
 */
async function load(chat: ChatLike, limit: number): Promise<MessageLike[]> {
  const fetch = chat.fetchMessages?.bind(chat);
  if (!fetch) {
    throw new WakitError('ENGINE_ERROR', 'this whatsapp-web.js Chat has no fetchMessages()');
  }
  try {
    const loaded = await fetch({ limit });
    if (loaded.length < limit) return loaded;
    return (await fetch({})).slice(-limit);
  } catch (error) {
    throw mapSendError(error, chat.id._serialized);
  }
}

const isMessage = (message: MessageLike, id: string): boolean =>
  message.id._serialized === id ||
  (message.id.id !== undefined && id.split('_')[2] === message.id.id);

/**
 * Newest first. whatsapp-web.js returns the latest `limit` messages oldest first; for `before`
 * the window grows (doubling, up to MAX_SCAN) until that message and `limit` older ones are in it.
 */
export async function fetchMessages(
  client: ClientLike,
  chatId: string,
  options: FetchMessagesOptions,
  meId?: string,
): Promise<MessageData[]> {
  const chat = await findChat(client, chatId);
  let window = options.before === undefined ? options.limit : options.limit + 50;
  for (;;) {
    const messages = await load(chat, window);
    const exhausted = messages.length < window || window >= MAX_SCAN;
    let end = messages.length;
    if (options.before !== undefined) {
      const before = options.before;
      end = messages.findIndex((message) => isMessage(message, before));
      if (end < 0 && exhausted) {
        throw new WakitError(
          'MESSAGE_NOT_FOUND',
          `message ${before} is not in the chat ${chatId}`,
          {
            details: { chatId, messageId: before },
          },
        );
      }
    }
    if (end >= 0 && (end >= options.limit || exhausted)) {
      return messages
        .slice(Math.max(0, end - options.limit), end)
        .reverse()
        .map((message) => toMessageData(message, meId));
    }
    window = Math.min(MAX_SCAN, window * 2);
  }
}

/** The chats area (`engine.ops.chats`) on the ready attempt's client. */
export function chatOps(ready: () => Attempt): ChatOps {
  return {
    list: async () => {
      const { client, identity } = ready();
      return getChats(client, identity?.id);
    },
    get: async (chatId) => {
      const { client, identity } = ready();
      return getChat(client, chatId, identity?.id);
    },
    fetchMessages: async (chatId, options) => {
      const { client, identity } = ready();
      return fetchMessages(client, chatId, options, identity?.id);
    },
    pin: async (chatId, pin) => pinChat(ready().client, chatId, pin),
  };
}
