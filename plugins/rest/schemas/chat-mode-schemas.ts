/**
 * Schemas of the chat mode routes (routes/chat-modes.ts, docs/handoff.md): who answers a chat,
 * the bot or a person, as `sdk.chats` gives it; registered as OpenAPI components.
 */
import { z } from 'zod';
import * as contract from '../../../src/entries/contract.js';
import { clientNameParam } from './api-schemas.js';
import { chatIdParam } from './chat-schemas.js';
import { named } from './schema-registry.js';

const isoTime = z.string().describe('ISO 8601 time');

export const ChatModeName = z
  .enum(['bot', 'human', 'closed'])
  .describe('`bot`: the bot answers; `human`: a person does (the bot is silent); `closed`: nobody');

const ModeReason = z
  .string()
  .min(1)
  .max(500)
  .describe("Why it was set, as its setter said (the ai plugin's handoff: the model's reason)");

/** The chat of a mode: a person (number, `@c.us`, `@lid`) or a group. */
export const ChatModeChatId = chatIdParam(contract.REPLY_KINDS);

export const ChatModeInfo = named(
  'ChatModeInfo',
  z
    .object({
      client: z.string(),
      chatId: z.string().describe('The chat as wakit keys it: a person by one id (LID when known)'),
      mode: ChatModeName,
      since: isoTime.optional().describe('When it was set; absent: never switched (default bot)'),
      by: z
        .enum(['sdk', 'api', 'operator', 'phone', 'silence'])
        .optional()
        .describe('Who switched it: the SDK, the API, an operator command, the phone, the silence'),
      until: isoTime
        .optional()
        .describe('Automatic human: when the bot takes over again if the account stays silent'),
      reason: ModeReason.optional(),
    })
    .strict(),
  "A chat's mode",
);

export const ChatModeList = named(
  'ChatModeList',
  z
    .object({
      chats: z.array(ChatModeInfo).describe('Chats whose mode was ever set, those back in bot too'),
      counts: z
        .object({ bot: z.number().int(), human: z.number().int(), closed: z.number().int() })
        .strict()
        .describe('How many of them are in each mode'),
    })
    .strict(),
  'Chat modes of the clients',
);

export const SetChatModeRequest = named(
  'SetChatModeRequest',
  z.object({ mode: ChatModeName, reason: ModeReason.optional() }).strict(),
  "Sets a chat's mode",
);

export const ChatModeQuery = z
  .object({ client: clientNameParam.optional().describe('The client (default: the only one)') })
  .strict();
