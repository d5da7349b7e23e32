/** What the chats reads answer over REST (OpenAPI components: Chat, ChatList, ChatMessage, …). */
import { z } from 'zod';

export const LastMessage = z
  .object({
    id: z.string(),
    body: z.string(),
    type: z.string(),
    fromMe: z.boolean(),
    timestamp: z.number(),
    hasMedia: z.boolean(),
    author: z.string().optional(),
  })
  .strict();

export const Chat = z
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
  .strict();

export const ChatList = z
  .object({ items: z.array(Chat), nextCursor: z.string().nullable() })
  .strict();

/** A message of a chat's history (the fields of the `message` event; more may come). */
export const ChatMessage = z.looseObject({
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
});

export const ChatMessageList = z
  .object({
    items: z.array(ChatMessage),
    /** Pass as `before` for older messages; null when there are none. */
    nextBefore: z.string().nullable(),
  })
  .strict();
