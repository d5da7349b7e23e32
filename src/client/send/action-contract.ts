/**
 * The contract of message actions and presence: one zod schema per kind (reaction, edit, delete,
 * seen, presence, online), shared by the SDK and REST, and `prepareAction` that turns an input into
 * a `PreparedSend` the outbound queue takes (queued, journaled and recovered like a message).
 */
import { z } from 'zod';
import { WakitError, issueError, zodIssues } from '../../errors/index.js';
import { chatOfMessageId, isOwnMessageId } from '../../engines/ports/actions.js';
import { CHAT_STATES, type ChatState } from '../../engines/ports/presence.js';
import { CHAT_KINDS, REPLY_KINDS, normalizeChatId } from '../chat-id.js';
import { preparedAction, type PreparedSend } from './send-contract.js';
import type { ActionContent } from '../types.js';

export const ACTION_KINDS = ['reaction', 'edit', 'delete', 'seen', 'presence', 'online'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** Kinds paced lightly (docs/queue.md): no per-chat gap, a short global gap. */
const LIGHT_KINDS: ReadonlySet<string> = new Set(['reaction', 'seen', 'presence', 'online']);
const ACTIONS: ReadonlySet<string> = new Set(ACTION_KINDS);

/** True for kinds that act on existing messages or presence (no message id to follow acks of). */
export function isActionKind(kind: string): boolean {
  return ACTIONS.has(kind);
}

/** True for kinds the queue paces lightly. */
export function isLightKind(kind: string): boolean {
  return LIGHT_KINDS.has(kind);
}

const EMOJI_CHARS =
  /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\p{Emoji_Component}|\u200d|\ufe0f|\u20e3)+$/u;
const EMOJI_BASE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;

/** `isReactionEmoji` as one ECMAScript pattern (with the `u` flag): the OpenAPI document's. */
export const REACTION_EMOJI_PATTERN = `^(?:|(?=[\\s\\S]*(?:${EMOJI_BASE.source}))${EMOJI_CHARS.source.slice(1, -1)})$`;

/** One emoji (a sequence such as 👍🏽, 👨‍👩‍👧 or 🇳🇱 counts as one), or `''`. */
export function isReactionEmoji(value: string): boolean {
  return value === '' || (EMOJI_CHARS.test(value) && EMOJI_BASE.test(value));
}

export const messageIdSchema = z
  .string()
  .min(1)
  .max(256)
  .refine(
    (id) => chatOfMessageId(id) !== null,
    'must be a WhatsApp message id (true_<chat>_<id> or false_<chat>_<id>[_<author>])',
  );
const chatId = z.string().min(1).max(128);
const emoji = z
  .string()
  .max(32)
  .refine(isReactionEmoji, 'must be one emoji, or "" to remove the reaction');
const text = z
  .string()
  .max(65_536)
  .refine((t) => t.trim().length > 0, 'must not be empty');

export const actionSchemas = {
  reaction: z.object({ messageId: messageIdSchema, emoji }).strict(),
  edit: z.object({ messageId: messageIdSchema, text }).strict(),
  delete: z
    .object({ messageId: messageIdSchema, forEveryone: z.boolean().default(false) })
    .strict(),
  seen: z.object({ chatId }).strict(),
  presence: z.object({ chatId, state: z.enum(CHAT_STATES) }).strict(),
  online: z.object({ online: z.boolean() }).strict(),
};

export type ActionInput<K extends ActionKind> = z.input<(typeof actionSchemas)[K]>;

/**
 * Validates an action and makes the send the queue takes. The chat of a reaction, edit or delete is
 * the one its message id names. `self` is the account's own id (the "chat" of `online`).
 * Editing a message that is not this account's own (`false_…`) is PERMISSION_DENIED at once.
 */
export function prepareAction<K extends ActionKind>(
  kind: K,
  input: ActionInput<K>,
  self = '',
): PreparedSend {
  const result = (actionSchemas[kind] as z.ZodType).safeParse(input);
  if (!result.success) {
    throw issueError('VALIDATION_FAILED', `Invalid ${kind}`, zodIssues(result.error, []));
  }
  return actionSend(kind, result.data as ActionOutput<K>, self);
}

export type ActionOutput<K extends ActionKind> = z.output<(typeof actionSchemas)[K]>;

/** `prepareAction` of an input its schema has checked already (a capability's). */
export function actionSend<K extends ActionKind>(
  kind: K,
  checked: ActionOutput<K>,
  self = '',
): PreparedSend {
  const value = checked as Record<string, unknown>;
  let content: ActionContent;
  switch (kind) {
    case 'reaction':
      content = { kind, messageId: value.messageId as string, emoji: value.emoji as string };
      break;
    case 'edit':
      if (!isOwnMessageId(value.messageId as string)) {
        throw new WakitError(
          'PERMISSION_DENIED',
          `Message ${value.messageId as string} is not this account's: only the author can edit it`,
          { details: { messageId: value.messageId, reason: 'not_author' } },
        );
      }
      content = { kind, messageId: value.messageId as string, text: value.text as string };
      break;
    case 'delete':
      content = {
        kind,
        messageId: value.messageId as string,
        forEveryone: value.forEveryone as boolean,
      };
      break;
    case 'seen':
      return preparedAction(normalizeChatId(value.chatId, 'chatId', { allow: REPLY_KINDS }), {
        kind,
      });
    case 'presence':
      return preparedAction(normalizeChatId(value.chatId, 'chatId', { allow: REPLY_KINDS }), {
        kind,
        state: value.state as ChatState,
      });
    default:
      return preparedAction(self, { kind: 'online', online: value.online as boolean });
  }
  const chat = chatOfMessageId(content.messageId)!;
  return preparedAction(normalizeChatId(chat, 'messageId', { allow: CHAT_KINDS }), content);
}
