import { WakitError } from '../errors/index.js';
import type { ChatData } from '../engines/ports/chats.js';
import type { MessageData } from '../engines/types.js';
import { normalizeChatId, type ChatKind } from './chat-id.js';
import type { ClientCore } from './client-core.js';
import { paginate, pageLimit, type Page } from './pagination.js';
import { readyEngine } from './ready-engine.js';

export type { ChatData, LastMessageSummary } from '../engines/ports/chats.js';

/** Chats are conversations: people (by number or LID), groups and channels; not the status feed. */
export const CONVERSATION_KINDS: readonly ChatKind[] = ['user', 'lid', 'group', 'channel'];

export interface GetChatsOptions {
  /** 1-500, default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** Only chats with unread messages. */
  unreadOnly?: boolean;
}

export interface FetchMessagesInput {
  /** 1-500, default 50. */
  limit?: number;
  /** Only messages older than this one (a message id, e.g. the last of the previous page). */
  before?: string;
}

export type ChatPage = Page<ChatData>;

/** Chats: the part of the SDK client that reads conversations (directly, not queued; READY only). */
export interface ChatsApi {
  /**
   * The account's chats, most recent activity first (ties by id), one page at a time: pass the
   * page's `nextCursor` as `cursor` for the next (null on the last page).
   */
  getChats(options?: GetChatsOptions): Promise<ChatPage>;
  /** One chat: name, unread count, last message, archived / pinned / muted. CHAT_NOT_FOUND. */
  getChat(chatId: string): Promise<ChatData>;
  /** A chat's messages, newest first; `before` pages back in time. MESSAGE_NOT_FOUND for it. */
  fetchMessages(chatId: string, options?: FetchMessagesInput): Promise<MessageData[]>;
}

export function chatsApi(core: ClientCore): ChatsApi {
  return {
    async getChats(options = {}) {
      const limit = pageLimit(options.limit);
      const chats = await readyEngine(core).ops.chats.list();
      const wanted = options.unreadOnly ? chats.filter((chat) => chat.unreadCount > 0) : chats;
      return paginate(wanted, (chat) => [-chat.timestamp, chat.id], ['number', 'string'], {
        limit,
        ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
      });
    },
    async getChat(chatId) {
      const id = normalizeChatId(chatId, 'chatId', { allow: CONVERSATION_KINDS });
      return readyEngine(core).ops.chats.get(id);
    },
    async fetchMessages(chatId, options = {}) {
      const id = normalizeChatId(chatId, 'chatId', { allow: CONVERSATION_KINDS });
      const limit = pageLimit(options.limit);
      const { before } = options;
      if (before !== undefined && (typeof before !== 'string' || !before || before.length > 256)) {
        throw new WakitError('VALIDATION_FAILED', 'before must be a message id', {
          issues: [{ path: 'before', message: 'must be a message id' }],
        });
      }
      return readyEngine(core).ops.chats.fetchMessages(id, before ? { limit, before } : { limit });
    },
  };
}
