/**
 * Chat modes over REST (docs/handoff.md, docs/rest-api.md): read and set who answers a chat (the
 * bot, a person, nobody), and list the chats whose mode was set, through the `chats` privileged
 * service (`sdk.chats`). The client is named as on the other `/api/v1/chats/{chatId}` routes:
 * `?client=` (the default client when absent), within the token's clients.
 */
import { z } from 'zod';
import { canSee } from '../middleware/auth.js';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  ChatModeChatId,
  ChatModeInfo,
  ChatModeList,
  ChatModeQuery,
  SetChatModeRequest,
} from '../schemas/chat-mode-schemas.js';

const tag = 'chats';
const ChatParams = z.object({ chatId: ChatModeChatId }).strict();

export function chatModeRoutes(rc: RestContext): AnyRoute[] {
  const chats = () => rc.sdk.chats;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/chats/{chatId}/mode',
      operationId: 'getChatMode',
      summary: 'Who answers a chat: the bot, a person (human) or nobody (closed)',
      tag,
      params: ChatParams,
      query: ChatModeQuery,
      responses: { 200: { description: "The chat's mode", schema: ChatModeInfo } },
      errors: [400, 401, 403, 404],
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        ctx.body = await chats().mode(client.name, params.chatId);
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/chats/{chatId}/mode',
      operationId: 'setChatMode',
      summary: "Set a chat's mode: bot, human (a person answers) or closed",
      description:
        'Outside `bot`, handlers, commands and conversations do not run for the chat (docs/handoff.md). A `chat.mode` event follows when the mode changed. Setting a mode by hand ends an automatic `human` deadline: the chat stays as set.',
      tag,
      params: ChatParams,
      query: ChatModeQuery,
      body: SetChatModeRequest,
      responses: { 200: { description: 'The mode now', schema: ChatModeInfo } },
      errors: [400, 401, 403, 404, 415],
      async handler(ctx, { params, query, body, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        ctx.body = await chats().setMode(
          client.name,
          params.chatId,
          body.mode,
          body.reason === undefined ? {} : { reason: body.reason },
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/chat-modes',
      operationId: 'listChatModes',
      summary: "Chats whose mode was set, of the token's clients (or of one client), with counts",
      tag,
      query: ChatModeQuery,
      responses: { 200: { description: 'Chat modes', schema: ChatModeList } },
      errors: [401, 403, 404],
      async handler(ctx, { query, principal }) {
        if (query.client !== undefined) {
          // the token may see the client, and it exists (on this node or another)
          ctx.state.client = resolveClient(rc, principal, query.client, { local: true }).name;
        }
        const list = (await chats().modes(query.client)).filter((c) => canSee(principal, c.client));
        const counts = { bot: 0, human: 0, closed: 0 };
        for (const chat of list) counts[chat.mode] += 1;
        ctx.body = { chats: list, counts };
      },
    }),
  ];
}
