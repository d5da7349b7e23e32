/** Chats (docs/chats.md): pinning a chat to the top of the chat list. */
import { z } from 'zod';
import { CONVERSATION_KINDS } from '../client/chats-api.js';
import { chatIdInput, chatIdParam } from './chat-id.js';
import { defineCapability } from './define.js';

const chatInput = z.object({ chatId: chatIdInput(CONVERSATION_KINDS) }).strict();
const chatParams = z.object({ chatId: chatIdParam(CONVERSATION_KINDS) }).strict();
const errors = [400, 401, 403, 404, 409, 502] as const;

/** What pinning answers: the chat and whether it is pinned now. */
export interface ChatPin {
  chatId: string;
  /** false after `pin`: WhatsApp pins 3 chats at most, and 3 are pinned already. */
  pinned: boolean;
}

const ChatPinSchema = z
  .object({
    chatId: z.string(),
    pinned: z.boolean().describe('false after pin: 3 chats are pinned already (WhatsApp allows 3)'),
  })
  .strict();

/** `chats.pin` (`pin`) and `chats.unpin`: one engine call, POST and DELETE of one path. */
function pinning(pin: boolean) {
  return defineCapability({
    name: pin ? 'chats.pin' : 'chats.unpin',
    summary: pin
      ? 'Pin a chat to the top of the chat list (WhatsApp pins 3 at most)'
      : 'Unpin a chat (nothing happens when it is not pinned)',
    docs: 'docs/chats.md#pinning',
    mode: 'direct',
    input: chatInput,
    args: ['chatId'],
    errors: ['CHAT_NOT_FOUND'],
    run: async (engine, { chatId }): Promise<ChatPin> => ({
      chatId,
      pinned: await engine.ops.chats.pin(chatId, pin),
    }),
    http: {
      method: pin ? 'POST' : 'DELETE',
      path: '/chats/{chatId}/pin',
      operationId: pin ? 'pinChat' : 'unpinChat',
      summary: pin
        ? 'Pin a chat to the top of the chat list; `pinned: false` when 3 are pinned already'
        : 'Unpin a chat',
      tag: 'chats',
      params: chatParams,
      toInput: ({ params }) => ({ chatId: params.chatId as string }),
      status: 200,
      response: { description: 'The pin state', schema: ChatPinSchema, component: 'ChatPin' },
      errors,
    },
  });
}

export const chats = { pin: pinning(true), unpin: pinning(false) };
