/**
 * Presence and read state over REST (docs/presence.md): mark a chat seen, show "typing…", set the
 * account online or offline. Queued with light pacing: 202, or 201 with `Prefer: wait=N`.
 */
import { z } from 'zod';
import { prepareAction } from '../../../src/entries/contract.js';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { ChatIdParam, ClientQuery, OnlineRequest, PresenceRequest } from '../action-schemas.js';
import { enqueueAndRespond } from './messages.js';
import { queuedResponses } from './actions.js';

export function presenceRoutes(rc: RestContext): AnyRoute[] {
  const params = z.object({ chatId: ChatIdParam }).strict();
  const errors = [400, 401, 403, 404, 409, 415, 429, 502, 504];
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/chats/{chatId}/seen',
      operationId: 'markChatSeen',
      summary: 'Mark every message of the chat as read (blue ticks); queued',
      tag: 'presence',
      params,
      query: ClientQuery,
      responses: queuedResponses,
      errors,
      async handler(ctx, { params: p, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        await enqueueAndRespond(
          rc,
          ctx,
          client,
          prepareAction('seen', { chatId: p.chatId }),
          principal,
        );
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/chats/{chatId}/presence',
      operationId: 'sendPresence',
      summary: 'Show "typing…" or "recording audio…" in the chat, or stop (paused); queued',
      tag: 'presence',
      params,
      body: PresenceRequest,
      responses: queuedResponses,
      errors,
      async handler(ctx, { params: p, body, principal }) {
        const client = resolveClient(rc, principal, body.client);
        const send = prepareAction('presence', { chatId: p.chatId, state: body.state });
        await enqueueAndRespond(rc, ctx, client, send, principal);
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/presence',
      operationId: 'setOnline',
      summary: 'Show the account online (available) or offline (unavailable); queued',
      tag: 'presence',
      body: OnlineRequest,
      responses: queuedResponses,
      errors,
      async handler(ctx, { body, principal }) {
        const client = resolveClient(rc, principal, body.client);
        const send = prepareAction('online', { online: body.online }, client.info().me?.id ?? '');
        await enqueueAndRespond(rc, ctx, client, send, principal);
      },
    }),
  ];
}
