import type { QueueOptions } from '../capabilities/define.js';
import type { Managers } from '../capabilities/registry.js';
import type { ChatData } from '../engines/ports/chats.js';
import type { Page } from './pagination.js';

export type { CallData } from '../engines/ports/calls.js';
export type { ChatData, LastMessageSummary } from '../engines/ports/chats.js';
export type { ContactData } from '../engines/ports/contacts.js';

/**
 * The types of a client's area managers (`client.calls`, `client.chats`, `client.contacts`,
 * `client.messages`, `client.presence`; `client.groups` in src/capabilities/groups.ts): each is
 * built from its declarations in src/capabilities/<area>.ts (docs/capabilities.md).
 */

/** Calls, `client.calls` (`reject`). See docs/calls.md. */
export type CallsApi = Managers['calls'];

/** Chats, `client.chats` (`list`, `get`, `messages`, `pin`, `unpin`; direct, READY only). See docs/chats.md. */
export type ChatsApi = Managers['chats'];

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

/** Contacts, `client.contacts`. See docs/chats.md. */
export type ContactsApi = Managers['contacts'];

/** Message actions, `client.messages` (`react`, `edit`, `delete`; queued like sends). See docs/actions.md. */
export type ActionsApi = Managers['messages'];

/** Options of every action: an idempotency key, as on sends. */
export type ActionOptions = QueueOptions;

/**
 * Presence and read state, `client.presence` (`markSeen`, `send`, `setOnline`; queued with light
 * pacing). See docs/presence.md.
 */
export type PresenceApi = Managers['presence'];
