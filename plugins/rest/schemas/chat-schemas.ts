/**
 * `chatIdParam`: the chat id of a path or body in the hand-written routes' schemas (the chats
 * routes are generated from src/capabilities/chats.ts, the simulator's from its plugin).
 */
import { z } from 'zod';
import * as contract from '../../../src/entries/contract.js';

/**
 * A chat id (or phone number) of `kinds` in a path: checked and normalised by the SDK
 * (INVALID_CHAT_ID); the pattern says the same in the OpenAPI document.
 */
export function chatIdParam(kinds: readonly contract.ChatKind[]) {
  return z
    .string()
    .min(1)
    .max(128)
    .meta({ pattern: contract.chatIdPattern(kinds) });
}
