/**
 * Chat ids: WhatsApp's small typed vocabulary of addresses, and which operation takes which kind.
 *
 * | kind      | form                                   | what it is                                  |
 * |-----------|----------------------------------------|---------------------------------------------|
 * | `user`    | `<digits>@c.us`                        | a person by phone number                    |
 * | `lid`     | `<digits>@lid`                         | a person by LID (linked identity, number hidden) |
 * | `group`   | `<id>@g.us` (legacy `<digits>-<digits>@g.us`) | a group                              |
 * | `channel` | `<id>@newsletter`                      | a channel (only its admins post)            |
 * | `status`  | `status@broadcast`                     | the status feed                             |
 *
 * A bare phone number (digits, optional leading `+`, spaces or dashes) is a `user` id.
 *
 * API (what sends, replies, forwards, mentions, owners and REST use):
 * - `parseChatId(value, field, { allow })` → `{ id, kind }`: normalises and checks the kind against
 *   `allow` (default `SEND_TARGET_KINDS`); otherwise throws `INVALID_CHAT_ID` (400) whose message
 *   says why, with `details { field, kind?, allowed }`.
 * - `normalizeChatId(value, field, { allow })`: the same, returning only the id.
 * - kind lists per operation: `SEND_TARGET_KINDS`, `REPLY_KINDS`, `FORWARD_TARGET_KINDS`,
 *   `PERSON_KINDS` (mentions, owners, senders), `GROUP_KINDS`.
 * - `chatKindOf(id)` (null when not a chat id), `isChatId`, `isGroupId`, `isPersonId`,
 *   `isChannelId`, `isStatusId`.
 * - `checkContentFor(chatId, content)`: what channels and status accept (whatsapp-web.js 1.34
 *   silently returns `null` for the rest, src/Client.js:1386-1430).
 */
import { WakitError } from '../errors/index.js';

export const CHAT_KINDS = ['user', 'lid', 'group', 'channel', 'status'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

export interface ParsedChatId {
  id: string;
  kind: ChatKind;
}

/** New messages: every kind (channels only for their admins, decided by WhatsApp). */
export const SEND_TARGET_KINDS: readonly ChatKind[] = CHAT_KINDS;
/** Replies quote the message in its chat: not in channels or status (WhatsApp has no quotes there). */
export const REPLY_KINDS: readonly ChatKind[] = ['user', 'lid', 'group'];
/** Forwarding copies a message into a conversation. */
export const FORWARD_TARGET_KINDS: readonly ChatKind[] = ['user', 'lid', 'group'];
/** A person: mentions, command owners, message senders. */
export const PERSON_KINDS: readonly ChatKind[] = ['user', 'lid'];
export const GROUP_KINDS: readonly ChatKind[] = ['group'];
/** Chats are conversations: people (by number or LID), groups and channels; not the status feed. */
export const CONVERSATION_KINDS: readonly ChatKind[] = ['user', 'lid', 'group', 'channel'];

export const STATUS_ID = 'status@broadcast';

const PATTERNS: ReadonlyArray<[ChatKind, RegExp]> = [
  ['user', /^\d{5,20}@c\.us$/],
  ['lid', /^\d{5,25}@lid$/],
  ['group', /^(\d{5,25}|\d{5,20}-\d{5,15})@g\.us$/],
  ['channel', /^\d{5,25}@newsletter$/],
  ['status', /^status@broadcast$/],
];
const PHONE = /^\+?[\d\s-]{5,30}$/;
/** A phone number in digits only: what most callers send, told apart with one test. */
const DIGITS = /^\d{5,20}$/;

const WHY: Record<ChatKind, string> = {
  user: 'a phone user',
  lid: 'a LID user',
  group: 'a group is not a person',
  channel:
    'channels (@newsletter) take only new posts by their admins: no replies, quotes or forwards',
  status:
    'status@broadcast is the status feed: it takes new posts only, no replies, quotes or forwards',
};

/**
 * What `parseChatId` takes for `kinds`, as one ECMAScript pattern (the OpenAPI document's): the ids
 * of those kinds, and phone numbers (5-20 digits, with spaces, dashes, a leading +) where users are.
 */
export function chatIdPattern(kinds: readonly ChatKind[] = CHAT_KINDS): string {
  const ids = PATTERNS.filter(([kind]) => kinds.includes(kind)).map(([, re]) =>
    re.source.slice(1, -1),
  );
  if (kinds.includes('user')) ids.push(`(?=(?:\\D*\\d){5,20}\\D*$)${PHONE.source.slice(1, -1)}`);
  return `^\\s*(?:${ids.join('|')})\\s*$`;
}

/** The kind of a chat id, or null when `value` is not one (phone numbers are not normalised here). */
export function chatKindOf(value: string): ChatKind | null {
  for (const [kind, pattern] of PATTERNS) if (pattern.test(value)) return kind;
  return null;
}

export function isChatId(value: string): boolean {
  return chatKindOf(value) !== null;
}
export function isGroupId(chatId: string): boolean {
  return chatId.endsWith('@g.us');
}
/** `@c.us` or `@lid`. */
export function isPersonId(chatId: string): boolean {
  return chatId.endsWith('@c.us') || chatId.endsWith('@lid');
}
export function isChannelId(chatId: string): boolean {
  return chatId.endsWith('@newsletter');
}
export function isStatusId(chatId: string): boolean {
  return chatId === STATUS_ID;
}

function invalid(message: string, details: Record<string, unknown>): WakitError {
  return new WakitError('INVALID_CHAT_ID', message, { details });
}

/**
 * Normalises and classifies a chat id, refusing kinds outside `allow` with INVALID_CHAT_ID saying
 * why. Nothing here touches the network.
 */
export function parseChatId(
  value: unknown,
  field = 'to',
  options: { allow?: readonly ChatKind[] } = {},
): ParsedChatId {
  const allow = options.allow ?? SEND_TARGET_KINDS;
  if (typeof value !== 'string') {
    throw invalid(`${field} must be a chat id string`, { field, allowed: allow });
  }
  const trimmed = value.trim();
  let parsed: ParsedChatId | null = null;
  if (DIGITS.test(trimmed)) parsed = { id: `${trimmed}@c.us`, kind: 'user' };
  else {
    const kind = chatKindOf(trimmed);
    if (kind) parsed = { id: trimmed, kind };
    else if (PHONE.test(trimmed) && !trimmed.slice(1).includes('+')) {
      const digits = trimmed.replace(/\D/g, '');
      if (digits.length >= 5 && digits.length <= 20)
        parsed = { id: `${digits}@c.us`, kind: 'user' };
    }
  }
  if (!parsed) {
    throw invalid(
      `${field} "${trimmed.slice(0, 80)}" is not a chat id: use a phone number, <digits>@c.us, ` +
        `<digits>@lid, <id>@g.us, <id>@newsletter or status@broadcast`,
      { field, allowed: allow },
    );
  }
  if (!allow.includes(parsed.kind)) {
    throw invalid(
      `${field} "${parsed.id}" cannot be used here: ${WHY[parsed.kind]} (allowed: ${allow.join(', ')})`,
      { field, kind: parsed.kind, allowed: allow },
    );
  }
  return parsed;
}

/** `parseChatId(...).id`: the normalised chat id. */
export function normalizeChatId(
  value: unknown,
  field = 'to',
  options: { allow?: readonly ChatKind[] } = {},
): string {
  return parseChatId(value, field, options).id;
}

/**
 * What channels and status accept, checked before queueing (whatsapp-web.js 1.34's sendMessage
 * returns `null` without sending otherwise, src/Client.js:1386-1430): no quotes in either, no
 * documents, locations or contact cards in either, no stickers or polls on status; mentions only
 * where there are people to mention.
 */
export function checkContentFor(
  chatId: string,
  content: {
    kind: string;
    quotedMessageId?: string;
    options?: { quotedMessageId?: string; mentions?: string[] };
  },
): void {
  // only channels and status take less than every kind (no regex walk for the rest)
  const kind = isChannelId(chatId) ? 'channel' : isStatusId(chatId) ? 'status' : undefined;
  if (!kind) return;
  const where = kind === 'channel' ? 'channels' : 'status';
  const refuse = (what: string): never => {
    throw new WakitError('VALIDATION_FAILED', `${what} cannot be sent to ${where} (${chatId})`, {
      details: { chatId, kind },
    });
  };
  if (content.kind === 'document') refuse('documents');
  if (content.kind === 'sticker' && kind === 'status') refuse('stickers');
  if (content.kind === 'location') refuse('locations');
  if (content.kind === 'contact') refuse('contact cards');
  if (content.kind === 'poll' && kind === 'status') refuse('polls');
  if (content.options?.quotedMessageId || content.quotedMessageId) refuse('quoted replies');
  if (content.options?.mentions?.length) refuse('mentions');
}
