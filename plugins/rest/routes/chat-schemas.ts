/** Schemas of the chats routes (chats.ts), registered in `restSchemas` as OpenAPI components. */
import { z } from 'zod';
import { CONVERSATION_KINDS, chatIdPattern } from '../../../src/entries/contract.js';
import type { ChatKind } from '../../../src/entries/types.js';
import { restSchemas, clientNameParam } from '../schemas.js';

function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  restSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

const limit = z.coerce.number().int().min(1).max(500).default(50);
const cursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,1024}$/, 'must be a nextCursor from a previous page')
  .describe('`nextCursor` of the previous page of the same list (another value is 400)')
  .optional();
const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

/** `?client=`: the default client when absent. */
export const ClientQuery = z.object({ client: clientNameParam.optional() }).strict();

export const ChatListQuery = z
  .object({
    client: clientNameParam.optional(),
    limit,
    cursor,
    /** Only chats with unread messages. */
    unreadOnly: booleanFlag,
  })
  .strict();

export const ChatMessagesQuery = z
  .object({
    client: clientNameParam.optional(),
    limit,
    /** Only messages older than this message id (`nextBefore` of the previous page). */
    before: z.string().min(1).max(256).optional(),
  })
  .strict();

/**
 * A chat id (or phone number) of `kinds` in a path: checked and normalised by the SDK
 * (INVALID_CHAT_ID); the pattern says the same in the OpenAPI document.
 */
export function chatIdParam(kinds: readonly ChatKind[]) {
  return z
    .string()
    .min(1)
    .max(128)
    .meta({ pattern: chatIdPattern(kinds) });
}
/** A chat of the account (`getChat`, its messages). */
export const ChatIdParam = chatIdParam(CONVERSATION_KINDS);

export const LastMessage = named(
  'LastMessage',
  z
    .object({
      id: z.string(),
      body: z.string(),
      type: z.string(),
      fromMe: z.boolean(),
      timestamp: z.number(),
      hasMedia: z.boolean(),
      author: z.string().optional(),
    })
    .strict(),
);

export const Chat = named(
  'Chat',
  z
    .object({
      id: z.string(),
      name: z.string(),
      isGroup: z.boolean(),
      unreadCount: z.number().int(),
      /** Unix seconds of the last activity; 0 when none. */
      timestamp: z.number(),
      lastMessage: LastMessage.optional(),
      archived: z.boolean().optional(),
      pinned: z.boolean().optional(),
      muted: z.boolean().optional(),
    })
    .strict(),
);

export const ChatList = named(
  'ChatList',
  z.object({ items: z.array(Chat), nextCursor: z.string().nullable() }).strict(),
  'One page, most recent activity first; pass `nextCursor` as `cursor` for the next (null: last page).',
);

/** A message of a chat's history (the fields of the `message` event; more may come). */
export const ChatMessage = named(
  'ChatMessage',
  z.looseObject({
    id: z.string(),
    body: z.string(),
    from: z.string(),
    to: z.string(),
    chatId: z.string(),
    timestamp: z.number(),
    fromMe: z.boolean(),
    type: z.string(),
    hasMedia: z.boolean(),
    isGroup: z.boolean(),
    ack: z.number().int(),
    author: z.string().optional(),
    /** The people it mentions, as chat ids (`[]` when none). */
    mentionedIds: z.array(z.string()),
    sender: z.looseObject({ id: z.string() }),
  }),
);

export const ChatMessageList = named(
  'ChatMessageList',
  z
    .object({
      items: z.array(ChatMessage),
      /** Pass as `before` for older messages; null when there are none. */
      nextBefore: z.string().nullable(),
    })
    .strict(),
  'Newest first.',
);
