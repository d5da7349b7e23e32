/**
 * Chat ids in declarations: `chatIdInput` for a capability's input (checked and normalised by the
 * SDK: INVALID_CHAT_ID, as everywhere else) and `chatIdParam` for a REST path parameter (the
 * pattern says the same in the OpenAPI document).
 */
import { z } from 'zod';
import { chatIdPattern, normalizeChatId, type ChatKind } from '../client/chat-id.js';

/** A chat id of `kinds`, normalised (`15550001111` → `15550001111@c.us`); INVALID_CHAT_ID otherwise. */
export function chatIdInput(kinds: readonly ChatKind[], field = 'chatId') {
  return z
    .custom<string>(() => true)
    .transform((value) => normalizeChatId(value, field, { allow: kinds }));
}

/** A chat id (or phone number) of `kinds` in a REST path. */
export function chatIdParam(kinds: readonly ChatKind[]) {
  return z
    .string()
    .min(1)
    .max(128)
    .meta({ pattern: chatIdPattern(kinds) });
}
