/**
 * Message actions on whatsapp-web.js 1.34: `Message#react` (→ `Client#sendReaction`),
 * `Message#edit` and `Message#delete(everyone)` (structures/Message.js:479, 875, 604), and the
 * events `message_reaction`, `message_edit`, `message_revoke_everyone` (Client.js:917, 971, 692).
 *
 * whatsapp-web.js fails quietly where WhatsApp refuses: `edit` resolves to null for someone
 * else's message or outside the edit window, `delete(true)` falls back to "delete for me" when
 * the account may not revoke, `sendReaction` does nothing for an unknown message. So the rules
 * are checked here first and turned into codes: MESSAGE_NOT_FOUND, PERMISSION_DENIED,
 * MESSAGE_TOO_OLD.
 */
import { WakitError, isWakitError } from '../../errors/index.js';
import type { Clock } from '../../kernel/clock.js';
import {
  EDIT_WINDOW_MS,
  REVOKE_WINDOW_MS,
  chatOfMessageId,
  type ActionOps,
  type EditUpdate,
  type ReactionUpdate,
  type RevokeUpdate,
} from '../ports/actions.js';
import type { Attempt } from './attempt.js';
import { mapSendError } from './map-errors.js';
import type { LRUCache } from 'lru-cache';
import { findMessage } from './operations.js';
import { serializedId, widText, withSerializedId } from './serialized-id.js';
import type { ChatLike, ClientLike, MessageKeyLike, MessageLike, SerializedId } from './types.js';

/** `Message` with the action methods (structures/Message.js). */
export interface ActionMessageLike extends MessageLike {
  react(reaction: string): Promise<void>;
  edit(content: string, options?: Record<string, unknown>): Promise<MessageLike | null>;
  delete(everyone?: boolean, clearMedia?: boolean): Promise<void>;
}

/**
 * `Reaction` (structures/Reaction.js): ids are WhatsApp Web MsgKeys as JSON (the page's
 * `onReaction` crosses by value), so without `_serialized` on builds with the renamed key.
 */
export interface ReactionLike {
  id?: (Partial<SerializedId> & { fromMe?: boolean }) | string;
  msgId?: MessageKeyLike | string;
  reaction?: string;
  senderId?: string;
  timestamp?: number;
}

export interface WwebjsActionsOptions {
  current: () => Attempt | null;
  messages: LRUCache<string, MessageLike>;
  clock: Clock;
}

export class WwebjsActions implements ActionOps {
  constructor(private readonly o: WwebjsActionsOptions) {}

  async react(messageId: string, emoji: string): Promise<void> {
    const message = await this.find(messageId);
    await call(() => message.react(emoji), messageId);
  }

  async edit(messageId: string, text: string): Promise<void> {
    const message = await this.find(messageId);
    if (!message.fromMe) {
      throw new WakitError('PERMISSION_DENIED', `Only the author can edit message ${messageId}`, {
        details: { messageId, reason: 'not_author' },
      });
    }
    this.checkWindow(message, messageId, EDIT_WINDOW_MS, 'edited');
    const edited = await call(() => message.edit(text), messageId);
    if (!edited) {
      throw new WakitError(
        'INVALID_STATE',
        `WhatsApp Web refused to edit message ${messageId} (only text and captions can be edited)`,
        { details: { messageId, type: message.type } },
      );
    }
  }

  async delete(messageId: string, forEveryone: boolean): Promise<void> {
    const message = await this.find(messageId);
    if (forEveryone) {
      if (!message.fromMe) await this.requireAdmin(message, messageId);
      this.checkWindow(message, messageId, REVOKE_WINDOW_MS, 'deleted for everyone');
    }
    await call(() => message.delete(forEveryone), messageId);
  }

  private async find(messageId: string): Promise<ActionMessageLike> {
    const attempt = this.o.current();
    if (!attempt || attempt.retired || !attempt.ready) {
      throw new WakitError('CLIENT_NOT_READY', 'whatsapp-web.js is not connected');
    }
    const message = await findMessage(attempt.client, this.o.messages.get(messageId), messageId);
    if (message.type === 'revoked') {
      throw new WakitError('MESSAGE_NOT_FOUND', `Message ${messageId} was deleted for everyone`, {
        details: { messageId },
      });
    }
    return message as ActionMessageLike;
  }

  /** Someone else's message may be revoked only by an admin of its group. */
  private async requireAdmin(message: MessageLike, messageId: string): Promise<void> {
    const attempt = this.o.current();
    const chatId = chatOfMessageId(messageId) ?? message.from;
    const me = attempt?.identity?.id;
    let chat: ChatLike | undefined;
    if (chatId.endsWith('@g.us') && attempt) {
      chat = await attempt.client.getChatById(chatId).catch((error: unknown) => {
        throw mapSendError(error, chatId);
      });
    }
    const member = chat?.participants?.find((p) => p.id._serialized === me);
    if (member && (member.isAdmin || member.isSuperAdmin)) return;
    throw new WakitError(
      'PERMISSION_DENIED',
      `Only the author${chatId.endsWith('@g.us') ? ' or a group admin' : ''} can delete message ${messageId} for everyone`,
      { details: { messageId, reason: chat ? 'not_author_or_admin' : 'not_author' } },
    );
  }

  private checkWindow(
    message: MessageLike,
    messageId: string,
    windowMs: number,
    what: string,
  ): void {
    const sentAt = message.timestamp * 1000;
    if (!Number.isFinite(sentAt) || this.o.clock.now() - sentAt <= windowMs) return;
    throw new WakitError(
      'MESSAGE_TOO_OLD',
      `Message ${messageId} is too old to be ${what} (WhatsApp allows ${windowMs / 60_000} minutes)`,
      { details: { messageId, windowMs, sentAt: new Date(sentAt).toISOString() } },
    );
  }
}

async function call<T>(fn: () => Promise<T>, messageId: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isWakitError(error)) throw error;
    throw mapSendError(error, chatOfMessageId(messageId) ?? messageId);
  }
}

/** `message_reaction` → `message.reaction`; undefined when the reaction names no message. */
export function toReactionUpdate(
  reaction: ReactionLike,
  ownId: string | undefined,
): ReactionUpdate | undefined {
  const messageId = serializedId(reaction.msgId);
  if (!messageId) return undefined;
  const remote = typeof reaction.msgId === 'object' ? reaction.msgId.remote : undefined;
  const chatId = widText(remote) ?? chatOfMessageId(messageId) ?? '';
  const emoji = reaction.reaction ?? '';
  const fromMe =
    (typeof reaction.id === 'object' && reaction.id.fromMe === true) ||
    (ownId !== undefined && reaction.senderId === ownId);
  return {
    messageId,
    chatId,
    senderId: reaction.senderId ?? '',
    emoji,
    removed: emoji === '',
    fromMe,
    timestamp: Math.floor(reaction.timestamp ?? Date.now() / 1000),
  };
}

/** `message_edit(message, newBody, prevBody)` → `message.edit`. */
export function toEditUpdate(
  message: MessageLike,
  newBody: unknown,
  prevBody: unknown,
  ownId: string | undefined,
): EditUpdate {
  const update: EditUpdate = {
    messageId: message.id._serialized,
    chatId: message.fromMe ? message.to : message.from,
    author: message.fromMe ? (ownId ?? message.from) : (message.author ?? message.from),
    body: typeof newBody === 'string' ? newBody : message.body,
    fromMe: message.fromMe,
    timestamp: Math.floor(Date.now() / 1000),
  };
  if (typeof prevBody === 'string') update.previousBody = prevBody;
  return update;
}

/**
 * `message_revoke_everyone(message, revokedMessage?)` → `message.revoke`. whatsapp-web.js does not
 * say who revoked: `by` is the author (a group admin deleting someone's message is not told apart).
 */
export function toRevokeUpdate(
  message: MessageLike,
  before: MessageLike | undefined,
  ownId: string | undefined,
): RevokeUpdate {
  const update: RevokeUpdate = {
    messageId: message.id._serialized,
    chatId: message.fromMe ? message.to : message.from,
    by: message.fromMe ? (ownId ?? message.from) : (message.author ?? message.from),
    fromMe: message.fromMe,
    timestamp: Math.floor(Date.now() / 1000),
  };
  if (before?.body) update.previousBody = before.body;
  return update;
}

/** What `wireActionEvents` needs from the wiring of one attempt. */
export interface ActionWiring {
  client: ClientLike;
  /** Wraps a handler so it runs only while the attempt is live (and never throws). */
  live<A extends unknown[]>(handler: (...args: A) => void): (...args: A) => void;
  fire(event: 'message.reaction', update: ReactionUpdate): void;
  fire(event: 'message.edit', update: EditUpdate): void;
  fire(event: 'message.revoke', update: RevokeUpdate): void;
  ownId(): string | undefined;
  /** Replaces the cached message (an edited or revoked one is looked up in its new state). */
  remember(message: MessageLike): void;
}

export function wireActionEvents(w: ActionWiring): void {
  w.client.on(
    'message_reaction',
    w.live((reaction: ReactionLike) => {
      const update = toReactionUpdate(reaction, w.ownId());
      if (update) w.fire('message.reaction', update);
    }),
  );
  w.client.on(
    'message_edit',
    w.live((message: MessageLike, newBody: unknown, prevBody: unknown) => {
      w.remember(withSerializedId(message));
      w.fire('message.edit', toEditUpdate(message, newBody, prevBody, w.ownId()));
    }),
  );
  w.client.on(
    'message_revoke_everyone',
    w.live((message: MessageLike, before?: MessageLike) => {
      w.remember(withSerializedId(message));
      if (before) withSerializedId(before);
      w.fire('message.revoke', toRevokeUpdate(message, before ?? undefined, w.ownId()));
    }),
  );
}
