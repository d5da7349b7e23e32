/** Chats of a client: `GET /api/v1/chats`, `/chats/{chatId}`, `/chats/{chatId}/messages`. */
import { z } from 'zod';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  Chat,
  ChatIdParam,
  ChatList,
  ChatListQuery,
  ChatMessageList,
  ChatMessagesQuery,
  ClientQuery,
} from './chat-schemas.js';

const ChatParams = z.object({ chatId: ChatIdParam }).strict();
const errors = [400, 401, 403, 404, 409, 502];

export function chatRoutes(rc: RestContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/chats',
      operationId: 'listChats',
      summary: 'The chats of a client, most recent activity first, one page at a time',
      description:
        '`client` defaults to the default client; `unreadOnly=true` keeps chats with unread ' +
        'messages. Cursors are stable: no chat appears twice while paging.',
      tag: 'chats',
      query: ChatListQuery,
      responses: { 200: { description: 'One page of chats', schema: ChatList } },
      errors,
      async handler(ctx, { query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        ctx.body = await client.getChats({
          limit: query.limit,
          ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
          ...(query.unreadOnly !== undefined ? { unreadOnly: query.unreadOnly } : {}),
        });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/chats/{chatId}',
      operationId: 'getChat',
      summary: 'One chat: name, unread count, last message, archived / pinned / muted',
      tag: 'chats',
      params: ChatParams,
      query: ClientQuery,
      responses: { 200: { description: 'The chat', schema: Chat } },
      errors,
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        ctx.body = await client.getChat(params.chatId);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/chats/{chatId}/messages',
      operationId: 'listChatMessages',
      summary: "A chat's messages, newest first; `before` pages back in time",
      tag: 'chats',
      params: ChatParams,
      query: ChatMessagesQuery,
      responses: { 200: { description: 'Messages, newest first', schema: ChatMessageList } },
      errors,
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        const items = await client.fetchMessages(params.chatId, {
          limit: query.limit,
          ...(query.before !== undefined ? { before: query.before } : {}),
        });
        const last = items.at(-1);
        ctx.body = { items, nextBefore: items.length === query.limit && last ? last.id : null };
      },
    }),
  ];
}
