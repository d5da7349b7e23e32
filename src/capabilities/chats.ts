/**
 * Chats (docs/chats.md): the account's chats and their messages (read directly, READY only), and
 * pinning a chat to the top of the chat list.
 */
import { z } from 'zod';
import { CONVERSATION_KINDS } from '../client/chat-id.js';
import { paginate, pageLimit } from '../client/pagination.js';
import { chatIdInput, chatIdParam } from './chat-id-schemas.js';
import { Chat, ChatList, ChatMessage, ChatMessageList, LastMessage } from './chat-schemas.js';
import { defineCapability } from './define.js';
import { cursorParam, pageLimitParam } from './paging.js';

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
    effect: 'additive', // pin and unpin undo each other
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

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

export const chats = {
  list: defineCapability({
    name: 'chats.list',
    summary:
      "The account's chats, most recent activity first (ties by id), one page at a time: pass the page's `nextCursor` as `cursor` for the next (null on the last page)",
    docs: 'docs/chats.md',
    mode: 'direct',
    input: z
      .object({
        limit: z.number().optional(),
        cursor: z.string().optional(),
        unreadOnly: z.boolean().optional(),
      })
      .strict(),
    args: [],
    options: ['limit', 'cursor', 'unreadOnly'],
    errors: [],
    run: async (engine, { limit, cursor, unreadOnly }) => {
      const size = pageLimit(limit);
      const all = await engine.ops.chats.list();
      const wanted = unreadOnly ? all.filter((chat) => chat.unreadCount > 0) : all;
      return paginate(wanted, (chat) => [-chat.timestamp, chat.id], ['number', 'string'], {
        limit: size,
        ...(cursor !== undefined ? { cursor } : {}),
      });
    },
    http: {
      method: 'GET',
      path: '/chats',
      operationId: 'listChats',
      summary: 'The chats of a client, most recent activity first, one page at a time',
      description:
        '`client` defaults to the default client; `unreadOnly=true` keeps chats with unread ' +
        'messages. Cursors are stable: no chat appears twice while paging.',
      tag: 'chats',
      query: z
        .object({
          limit: pageLimitParam,
          cursor: cursorParam,
          /** Only chats with unread messages. */
          unreadOnly: booleanFlag,
        })
        .strict(),
      toInput: ({ query }) => ({
        limit: query.limit as number,
        cursor: query.cursor as string | undefined,
        unreadOnly: query.unreadOnly as boolean | undefined,
      }),
      status: 200,
      response: {
        description: 'One page of chats',
        schema: ChatList,
        component: 'ChatList',
        componentDescription:
          'One page, most recent activity first; pass `nextCursor` as `cursor` for the next (null: last page).',
      },
      components: { Chat, LastMessage },
      errors,
    },
  }),
  get: defineCapability({
    name: 'chats.get',
    summary: 'One chat: name, unread count, last message, archived / pinned / muted',
    docs: 'docs/chats.md',
    mode: 'direct',
    input: chatInput,
    args: ['chatId'],
    errors: ['CHAT_NOT_FOUND'],
    run: (engine, { chatId }) => engine.ops.chats.get(chatId),
    http: {
      method: 'GET',
      path: '/chats/{chatId}',
      operationId: 'getChat',
      summary: 'One chat: name, unread count, last message, archived / pinned / muted',
      tag: 'chats',
      params: chatParams,
      toInput: ({ params }) => ({ chatId: params.chatId as string }),
      status: 200,
      response: { description: 'The chat', schema: Chat, component: 'Chat' },
      components: { LastMessage },
      errors,
    },
  }),
  messages: defineCapability({
    name: 'chats.messages',
    summary:
      "A chat's messages, newest first; `before` (a message id) pages back in time (MESSAGE_NOT_FOUND for an unknown one)",
    docs: 'docs/chats.md',
    mode: 'direct',
    input: chatInput.extend({
      limit: z.number().optional(),
      before: z.string().min(1).max(256).optional(),
    }),
    args: ['chatId'],
    options: ['limit', 'before'],
    errors: ['CHAT_NOT_FOUND', 'MESSAGE_NOT_FOUND'],
    run: (engine, { chatId, limit, before }) => {
      const size = pageLimit(limit);
      return engine.ops.chats.fetchMessages(
        chatId,
        before ? { limit: size, before } : { limit: size },
      );
    },
    http: {
      method: 'GET',
      path: '/chats/{chatId}/messages',
      operationId: 'listChatMessages',
      summary: "A chat's messages, newest first; `before` pages back in time",
      tag: 'chats',
      params: chatParams,
      query: z
        .object({
          limit: pageLimitParam,
          /** Only messages older than this message id (`nextBefore` of the previous page). */
          before: z.string().min(1).max(256).optional(),
        })
        .strict(),
      toInput: ({ params, query }) => ({
        chatId: params.chatId as string,
        limit: query.limit as number,
        before: query.before as string | undefined,
      }),
      status: 200,
      response: {
        description: 'Messages, newest first',
        schema: ChatMessageList,
        component: 'ChatMessageList',
        componentDescription: 'Newest first.',
      },
      toBody: (items, { limit }) => {
        const last = items.at(-1);
        return { items, nextBefore: items.length === limit && last ? last.id : null };
      },
      components: { ChatMessage },
      errors,
    },
  }),
  pin: pinning(true),
  unpin: pinning(false),
};
