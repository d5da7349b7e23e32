/**
 * Conversations and chat state over REST (docs/rest-api.md, docs/conversations.md), through the
 * `conversations` privileged service (`sdk.conversations`): list, inspect, start (a bot that writes
 * first) and end active conversations; read and erase a chat's state. A token sees only the
 * conversations of its clients: one of another client is answered 404, as if it did not exist.
 */
import { z } from 'zod';
import { WakitError, isWakitError, normalizeChatId } from '../../../src/index.js';
import * as contract from '../../../src/entries/contract.js';
import { canSee, type Principal } from '../middleware/auth.js';
import { requireLocal } from '../middleware/forward.js';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { clientNameParam } from '../schemas/api-schemas.js';
import {
  ChatStateErased,
  ChatStateValues,
  ConversationChatId,
  ConversationIdParam,
  ConversationInfo,
  ConversationList,
  ConversationListQuery,
  EndConversationRequest,
  StartConversationRequest,
} from '../schemas/conversation-schemas.js';

const tag = 'conversations';
const IdParams = z.object({ id: ConversationIdParam }).strict();
const NameParams = z.object({ name: clientNameParam }).strict();
const ChatParams = z.object({ name: clientNameParam, chatId: ConversationChatId }).strict();

type Info = z.output<typeof ConversationInfo>;

/** The conversation `id`; CONVERSATION_NOT_FOUND also when its client is not the token's. */
async function visible(rc: RestContext, principal: Principal, id: string): Promise<Info> {
  let info: Info | undefined;
  try {
    info = await rc.sdk.conversations.get(id);
  } catch (error) {
    if (!isWakitError(error) || error.code !== 'CONVERSATION_NOT_FOUND') throw error;
  }
  // one of another client's conversations looks like no conversation at all
  if (!info || !canSee(principal, info.client)) {
    throw new WakitError('CONVERSATION_NOT_FOUND', `No active conversation ${id}`, {
      details: { id },
    });
  }
  return info;
}

/** A chat id of a path or body, normalised as sends normalise it (INVALID_CHAT_ID). */
function chatOf(value: string, field: string): string {
  return normalizeChatId(value, field, { allow: contract.REPLY_KINDS });
}

export function conversationRoutes(rc: RestContext): AnyRoute[] {
  const conversations = () => rc.sdk.conversations;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/conversations',
      operationId: 'listConversations',
      summary: "Active conversations of the token's clients (or of one client)",
      tag,
      query: ConversationListQuery,
      responses: { 200: { description: 'Active conversations', schema: ConversationList } },
      errors: [401, 403, 404],
      async handler(ctx, { query, principal }) {
        if (query.client !== undefined) {
          // the token may see the client, and it exists (on this node or another)
          ctx.state.client = resolveClient(rc, principal, query.client, { local: true }).name;
        }
        const all = await conversations().list(query.client);
        ctx.body = all.filter((info) => canSee(principal, info.client));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/conversations/{id}',
      operationId: 'getConversation',
      summary: 'One active conversation: its chat, step count and next timer',
      tag,
      params: IdParams,
      responses: { 200: { description: 'The conversation', schema: ConversationInfo } },
      errors: [401, 404],
      async handler(ctx, { params, principal }) {
        const info = await visible(rc, principal, params.id);
        ctx.state.client = info.client;
        ctx.body = info;
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/conversations/{id}',
      operationId: 'endConversation',
      summary: 'End an active conversation, optionally with a last message to its chat',
      description:
        'The body is optional: `{"message": "..."}` is sent to the chat (through the outbox, once) before the conversation ends. The conversation is gone from the list at once; its timer does not fire.',
      tag,
      params: IdParams,
      body: EndConversationRequest,
      bodyOptional: true,
      responses: { 204: { description: 'Ended' } },
      errors: [400, 401, 404, 415],
      async handler(ctx, { params, body, principal }) {
        const info = await visible(rc, principal, params.id);
        ctx.state.client = info.client;
        // in a fleet, the node that runs the client ends it (its timers and chat lanes are there)
        requireLocal(rc, info.client);
        await conversations().end(params.id, body?.message);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/clients/{name}/conversations',
      operationId: 'startConversation',
      summary: 'Start a conversation in a chat: the bot writes first',
      description:
        'Runs the named conversation (defined by a plugin with `ctx.conversations.define`) in the chat, as a command would start it; its first question is sent through the outbox. 409 CONVERSATION_ACTIVE when the chat has one already (unless that one lets itself be replaced); 404 CONVERSATION_UNKNOWN when no plugin defined the name.',
      tag,
      params: NameParams,
      body: StartConversationRequest,
      responses: { 201: { description: 'Started', schema: ConversationInfo } },
      errors: [400, 401, 403, 404, 409, 415],
      async handler(ctx, { params, body, principal }) {
        const client = resolveClient(rc, principal, params.name);
        ctx.state.client = client.name;
        const chatId = chatOf(body.chatId, 'chatId');
        const options = body.input === undefined ? {} : { input: body.input };
        ctx.body = await conversations().start(client.name, chatId, body.name, options);
        ctx.status = 201;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/clients/{name}/chats/{chatId}/state',
      operationId: 'getChatState',
      summary: "A chat's state (its own value and its members'), for support",
      tag,
      params: ChatParams,
      responses: { 200: { description: 'The chat state', schema: ChatStateValues } },
      errors: [400, 401, 403, 404],
      async handler(ctx, { params, principal }) {
        const client = resolveClient(rc, principal, params.name);
        ctx.state.client = client.name;
        const values = await conversations().readState(
          client.name,
          chatOf(params.chatId, 'chatId'),
        );
        ctx.body = {
          values: values.map(({ updatedAt, ...value }) => ({
            ...value,
            updatedAt: new Date(updatedAt).toISOString(),
          })),
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/clients/{name}/chats/{chatId}/state',
      operationId: 'eraseChatState',
      summary: "Erase a chat's state (a person's request to be forgotten)",
      tag,
      params: ChatParams,
      responses: { 200: { description: 'Erased', schema: ChatStateErased } },
      errors: [400, 401, 403, 404],
      async handler(ctx, { params, principal }) {
        const client = resolveClient(rc, principal, params.name);
        ctx.state.client = client.name;
        const erased = await conversations().eraseState(
          client.name,
          chatOf(params.chatId, 'chatId'),
        );
        ctx.body = { erased };
      },
    }),
  ];
}
