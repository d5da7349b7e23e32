/**
 * Message actions on the Engine port (`engine.ops.actions`): reacting to, editing and deleting
 * messages, and the events that tell of others doing so. Message ids are WhatsApp's serialized ids
 * (`<fromMe>_<chat>_<stanza>[_<author>]`), as the engine's own messages carry them.
 */

/** How long after sending a message WhatsApp lets its author edit it. */
export const EDIT_WINDOW_MS = 15 * 60_000;
/** How long after sending a message WhatsApp lets it be deleted for everyone (2 days 12 hours). */
export const REVOKE_WINDOW_MS = 60 * 3_600_000;

/** Payload of `message.reaction`: someone (or this account) reacted to a message. */
export interface ReactionUpdate {
  /** The message reacted to (its id as this account knows it). */
  messageId: string;
  chatId: string;
  /** Who reacted: a `@c.us` or `@lid` id (this account's id when `fromMe`). */
  senderId: string;
  /** The emoji; `''` when the reaction was removed. */
  emoji: string;
  removed: boolean;
  /** The reaction is this account's own (made from another device or by this client). */
  fromMe: boolean;
  /** Unix seconds. */
  timestamp: number;
}

/** Payload of `message.edit`: a message's text (or caption) was changed by its author. */
export interface EditUpdate {
  messageId: string;
  chatId: string;
  /** Who edited (the author of the message). */
  author: string;
  body: string;
  /** The text before the edit, when known. */
  previousBody?: string;
  fromMe: boolean;
  timestamp: number;
}

/** Payload of `message.revoke`: a message was deleted for everyone. */
export interface RevokeUpdate {
  messageId: string;
  chatId: string;
  /** Who deleted it: its author, or a group admin. */
  by: string;
  /** The message was this account's own. */
  fromMe: boolean;
  /** Its text before it was deleted, when known. */
  previousBody?: string;
  timestamp: number;
}

/**
 * What an engine does with existing messages. Every method throws coded WakitErrors:
 * MESSAGE_NOT_FOUND (unknown or already deleted), PERMISSION_DENIED (not the author / not an
 * admin), MESSAGE_TOO_OLD (outside WhatsApp's edit or delete-for-everyone window).
 */
export interface ActionOps {
  /** Reacts to a message; `''` removes this account's reaction. */
  react(messageId: string, emoji: string): Promise<void>;
  /** Replaces the text (or caption) of an own message, within EDIT_WINDOW_MS. */
  edit(messageId: string, text: string): Promise<void>;
  /**
   * Deletes a message: for everyone (own messages, or any message in a group this account
   * administers, within REVOKE_WINDOW_MS) or only on this account's devices (any message).
   */
  delete(messageId: string, forEveryone: boolean): Promise<void>;
}

/** The actions events (part of `EngineEvents`). */
export interface ActionEvents {
  'message.reaction': [update: ReactionUpdate];
  'message.edit': [update: EditUpdate];
  'message.revoke': [update: RevokeUpdate];
}

/** The chat id part of a serialized message id, or null when it is not one. */
export function chatOfMessageId(messageId: string): string | null {
  const parts = messageId.split('_');
  if (parts.length < 3 || (parts[0] !== 'true' && parts[0] !== 'false')) return null;
  return parts[1] || null;
}

/** True when the serialized id says the message is this account's own (`true_…`). */
export function isOwnMessageId(messageId: string): boolean {
  return messageId.startsWith('true_');
}
