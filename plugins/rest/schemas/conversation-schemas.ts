/**
 * Schemas of the conversation routes (routes/conversations.ts, docs/conversations.md): active
 * conversations and chat state, as `sdk.conversations` gives them; registered as OpenAPI components.
 */
import { z } from 'zod';
import * as contract from '../../../src/entries/contract.js';
import { chatIdParam } from './chat-schemas.js';
import { clientNameParam } from './api-schemas.js';
import { named } from './schema-registry.js';

const isoTime = z.string().describe('ISO 8601 time');

/** A conversation's id (as listed). */
export const ConversationIdParam = z.string().min(1).max(128);

/** The chat of a conversation or of chat state: a person (number, `@c.us`, `@lid`) or a group. */
export const ConversationChatId = chatIdParam(contract.REPLY_KINDS);

export const ConversationInfo = named(
  'ConversationInfo',
  z
    .object({
      id: z.string(),
      name: z.string().describe('The conversation (its definition) that runs'),
      version: z.number().int().describe('The version of its code it started on'),
      client: z.string(),
      chatId: z.string().describe('Its chat (a person by one id, LID when known, or a group)'),
      member: z.string().describe('The person it talks with in a group; empty in a private chat'),
      startedAt: isoTime,
      updatedAt: isoTime,
      steps: z.number().int().describe('Steps journaled so far (sends, answers, values)'),
      timer: z
        .object({ at: isoTime, action: z.enum(['remind', 'expire']) })
        .strict()
        .optional()
        .describe('When its timer fires next (no answer meanwhile), and what it does then'),
    })
    .strict(),
  'An active conversation',
);

export const ConversationList = named('ConversationList', z.array(ConversationInfo));

export const ConversationListQuery = z
  .object({ client: clientNameParam.optional().describe('Only this client (default: every one)') })
  .strict();

export const StartConversationRequest = named(
  'StartConversationRequest',
  z
    .object({
      chatId: ConversationChatId.describe(
        'The chat to write first to: a person (number, @c.us, @lid) or a group',
      ),
      name: z.string().min(1).max(128).describe('A conversation a plugin defined'),
      input: z.unknown().optional().describe("What the conversation's code gets as `conv.input`"),
    })
    .strict(),
  'Starts a conversation in a chat: the bot writes first',
);

export const EndConversationRequest = named(
  'EndConversationRequest',
  z
    .object({
      message: z.string().min(1).max(4_096).optional().describe('Sent to the chat as it ends'),
    })
    .strict(),
  'How an operator ends a conversation (the body is optional)',
);

export const ChatStateValues = named(
  'ChatStateValues',
  z
    .object({
      values: z.array(
        z
          .object({
            member: z
              .string()
              .optional()
              .describe("A group member's own value (absent: the chat's)"),
            value: z.unknown().describe('The value as the bot keeps it (its state schema)'),
            updatedAt: isoTime,
          })
          .strict(),
      ),
    })
    .strict(),
  "A chat's state: its own value and, in a group, its members'",
);

export const ChatStateErased = named(
  'ChatStateErased',
  z.object({ erased: z.number().int().describe('How many values were erased') }).strict(),
);
