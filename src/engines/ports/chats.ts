/**
 * The chats area of the Engine port (`engine.ops.chats`): the account's conversations and their
 * history, read directly (not through the send queue). Engines return every chat; the client sorts
 * and pages.
 */
import type { MessageData } from '../types.js';

/** The last message of a chat, in short. */
export interface LastMessageSummary {
  id: string;
  /** Text, or the caption of a media message ('' when none). */
  body: string;
  type: string;
  fromMe: boolean;
  /** Unix seconds. */
  timestamp: number;
  hasMedia: boolean;
  /** Who wrote it in a group. */
  author?: string;
}

/** A conversation of the account, as plain data. */
export interface ChatData {
  /** `<digits>@c.us`, `<digits>@lid`, `<id>@g.us` or `<id>@newsletter`. */
  id: string;
  /** The group subject, the saved contact name, the person's pushname or their number. */
  name: string;
  isGroup: boolean;
  /** Messages not read yet (0 once read on the phone or answered from this account). */
  unreadCount: number;
  /** Unix seconds of the last activity (0 when nothing happened in it yet, e.g. a new group). */
  timestamp: number;
  lastMessage?: LastMessageSummary;
  /** Present when the engine knows them. */
  archived?: boolean;
  pinned?: boolean;
  muted?: boolean;
}

export interface FetchMessagesOptions {
  /** How many messages at most (1-500). */
  limit: number;
  /** Only messages older than this message (its serialized id). */
  before?: string;
}

export interface ChatOps {
  /** Every chat of the account (any order). */
  list(): Promise<ChatData[]>;
  /**
   * One chat by normalised id (`@c.us` and `@lid` reach the same person). CHAT_NOT_FOUND when
   * the account has no such chat (a person it never exchanged a message with, an unknown group).
   */
  get(chatId: string): Promise<ChatData>;
  /**
   * The chat's messages, newest first: the `limit` latest, or the `limit` before `before`
   * (MESSAGE_NOT_FOUND when that message is not in the chat). CHAT_NOT_FOUND as for `get`.
   */
  fetchMessages(chatId: string, options: FetchMessagesOptions): Promise<MessageData[]>;
  /**
   * Pins (`pin`) or unpins a chat; the new pin state. Pinning answers false when 3 chats are pinned
   * already (WhatsApp's limit) and true when this one is pinned already; unpinning answers false.
   * CHAT_NOT_FOUND as for `get`.
   */
  pin(chatId: string, pin: boolean): Promise<boolean>;
}
