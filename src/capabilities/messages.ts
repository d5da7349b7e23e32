/**
 * Message actions (docs/actions.md): reacting to, editing and deleting messages. Queued like sends
 * (tracked, journaled, recovered after a crash); each resolves once made, with
 * `{ id: <the message acted on>, trackingId }`. Message ids are WhatsApp's serialized ids
 * (`message.id`, `SendResult.id`); over REST `{id}` may also be the tracking id of a send.
 */
import { z } from 'zod';
import {
  REACTION_EMOJI_PATTERN,
  actionSchemas,
  actionSend,
} from '../client/send/action-contract.js';
import { defineQueuedCapability } from './define.js';

/** A WhatsApp message id (`true_<chat>_<id>`, `false_<chat>_<id>[_<author>]`) or a tracking id. */
const messageIdParam = z.string().min(1).max(256).meta({
  pattern:
    '^(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|(?:true|false)_[^_]+_[\\s\\S]*)$',
});
const params = z.object({ id: messageIdParam }).strict();
const errors = [400, 401, 403, 404, 409, 415, 422, 429, 502, 504] as const;
const docs = 'docs/actions.md';

export const messages = {
  react: defineQueuedCapability({
    name: 'messages.react',
    effect: 'additive',
    summary: "React to a message with one emoji; `''` removes this account's reaction",
    docs,
    mode: 'queued',
    input: actionSchemas.reaction,
    args: ['messageId', 'emoji'],
    errors: ['MESSAGE_NOT_FOUND'],
    prepare: (input) => actionSend('reaction', input),
    http: {
      method: 'POST',
      path: '/messages/{id}/reaction',
      operationId: 'reactToMessage',
      summary: 'React to a message with one emoji ("" removes the reaction); queued',
      tag: 'actions',
      params,
      messageParam: true,
      body: {
        schema: z
          .object({
            emoji: actionSchemas.reaction.shape.emoji.meta({ pattern: REACTION_EMOJI_PATTERN }),
          })
          .strict(),
        component: 'ReactionRequest',
        componentDescription: 'One emoji; "" removes the reaction',
      },
      toInput: ({ params: p, body }) => ({
        messageId: p.id as string,
        emoji: body.emoji as string,
      }),
      errors,
    },
  }),
  edit: defineQueuedCapability({
    name: 'messages.edit',
    summary:
      "Replace the text (or caption) of one of this account's messages, within WhatsApp's 15-minute edit window (PERMISSION_DENIED for someone else's, MESSAGE_TOO_OLD after it)",
    docs,
    mode: 'queued',
    input: actionSchemas.edit,
    args: ['messageId', 'text'],
    errors: ['MESSAGE_NOT_FOUND', 'PERMISSION_DENIED', 'MESSAGE_TOO_OLD'],
    prepare: (input) => actionSend('edit', input),
    http: {
      method: 'PATCH',
      path: '/messages/{id}',
      operationId: 'editMessage',
      summary: "Edit the text of one of the account's messages (within 15 minutes); queued",
      tag: 'actions',
      params,
      messageParam: true,
      body: {
        // the text must not be blank
        schema: z.object({ text: actionSchemas.edit.shape.text.meta({ pattern: '\\S' }) }).strict(),
        component: 'EditRequest',
        componentDescription:
          'The new text (or caption) of an own message, within 15 minutes of sending it',
      },
      toInput: ({ params: p, body }) => ({ messageId: p.id as string, text: body.text as string }),
      errors,
    },
  }),
  delete: defineQueuedCapability({
    name: 'messages.delete',
    summary:
      'Delete a message: `{ forEveryone: true }` for own messages (or any, in a group this account administers) within 2 days 12 hours; otherwise on this account only',
    docs,
    mode: 'queued',
    input: actionSchemas.delete,
    args: ['messageId'],
    options: ['forEveryone'],
    errors: ['MESSAGE_NOT_FOUND', 'PERMISSION_DENIED', 'MESSAGE_TOO_OLD'],
    prepare: (input) => actionSend('delete', input),
    http: {
      method: 'DELETE',
      path: '/messages/{id}',
      operationId: 'deleteMessage',
      summary:
        'Delete a message: `forEveryone=true` for everyone (own, or as group admin; 2 days 12 hours), else for this account; queued',
      tag: 'actions',
      params,
      messageParam: true,
      query: z
        .object({
          forEveryone: z.enum(['true', 'false']).default('false').describe('Delete for everyone'),
        })
        .strict(),
      toInput: ({ params: p, query }) => ({
        messageId: p.id as string,
        forEveryone: query.forEveryone === 'true',
      }),
      errors,
    },
  }),
};
