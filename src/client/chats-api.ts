import type { Managers } from '../capabilities/registry.js';
import type { ChatData } from '../engines/ports/chats.js';
import type { Page } from './pagination.js';

export type { ChatData, LastMessageSummary } from '../engines/ports/chats.js';

export { CONVERSATION_KINDS } from './chat-id.js';

/** The options of `chats.list`. */
export interface GetChatsOptions {
  /** 1-500, default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** Only chats with unread messages. */
  unreadOnly?: boolean;
}

/** The options of `chats.messages`. */
export interface FetchMessagesInput {
  /** 1-500, default 50. */
  limit?: number;
  /** Only messages older than this one (a message id, e.g. the last of the previous page). */
  before?: string;
}

export type ChatPage = Page<ChatData>;

/**
 * Chats, `client.chats`: the manager built from src/capabilities/chats.ts (`list`, `get`,
 * `messages`, `pin`, `unpin`; direct, READY only). See docs/chats.md.
 */
export type ChatsApi = Managers['chats'];
