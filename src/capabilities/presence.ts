/**
 * Presence and read state (docs/presence.md): "typing…", marking a chat read, online or offline.
 * Queued with light pacing (docs/queue.md); each resolves once made (`{ id: '', trackingId }`).
 */
import { z } from 'zod';
import { actionSchemas, actionSend } from '../client/send/action-contract.js';
import { REPLY_KINDS } from '../client/chat-id.js';
import { CHAT_STATES } from '../engines/ports/presence.js';
import { chatIdParam } from './chat-id-schemas.js';
import { defineQueuedCapability } from './define.js';

const params = z.object({ chatId: chatIdParam(REPLY_KINDS) }).strict();
const errors = [400, 401, 403, 404, 409, 415, 429, 502, 504] as const;

export const presence = {
  markSeen: defineQueuedCapability({
    name: 'presence.markSeen',
    effect: 'additive',
    summary: 'Mark every message of the chat as read (their senders see blue ticks)',
    docs: 'docs/presence.md',
    mode: 'queued',
    input: actionSchemas.seen,
    args: ['chatId'],
    errors: ['INVALID_CHAT_ID', 'CHAT_NOT_FOUND'],
    prepare: (input) => actionSend('seen', input),
    http: {
      method: 'POST',
      path: '/chats/{chatId}/seen',
      operationId: 'markChatSeen',
      summary: 'Mark every message of the chat as read (blue ticks); queued',
      tag: 'presence',
      params,
      toInput: ({ params: p }) => ({ chatId: p.chatId as string }),
      errors,
    },
  }),
  send: defineQueuedCapability({
    name: 'presence.send',
    effect: 'additive',
    summary:
      'Show "typing…" or "recording audio…" in the chat (WhatsApp clears it after ~25 s), or stop it (`paused`)',
    docs: 'docs/presence.md',
    mode: 'queued',
    input: actionSchemas.presence,
    args: ['chatId', 'state'],
    errors: ['INVALID_CHAT_ID', 'CHAT_NOT_FOUND'],
    prepare: (input) => actionSend('presence', input),
    http: {
      method: 'POST',
      path: '/chats/{chatId}/presence',
      operationId: 'sendPresence',
      summary: 'Show "typing…" or "recording audio…" in the chat, or stop (paused); queued',
      tag: 'presence',
      params,
      body: {
        schema: z.object({ state: z.enum(CHAT_STATES) }).strict(),
        component: 'PresenceRequest',
        componentDescription: 'typing, recording (audio) or paused (stop)',
      },
      toInput: ({ params: p, body }) => ({
        chatId: p.chatId as string,
        state: body.state as (typeof CHAT_STATES)[number],
      }),
      errors,
    },
  }),
  setOnline: defineQueuedCapability({
    name: 'presence.setOnline',
    effect: 'additive',
    summary: 'Show this account online (`true`) or offline (`false`) to its contacts',
    docs: 'docs/presence.md',
    mode: 'queued',
    input: actionSchemas.online,
    args: ['online'],
    errors: [],
    prepare: (input, self) => actionSend('online', input, self),
    http: {
      method: 'PUT',
      path: '/presence',
      operationId: 'setOnline',
      summary: 'Show the account online (available) or offline (unavailable); queued',
      tag: 'presence',
      body: {
        schema: z.object({ online: z.boolean() }).strict(),
        component: 'OnlineRequest',
      },
      toInput: ({ body }) => ({ online: body.online as boolean }),
      errors,
    },
  }),
};
