/**
 * Forwarding over REST, and what the generated message-action routes (react, edit, delete:
 * src/capabilities/messages.ts) share with it: `{id}` is a WhatsApp message id (`message.id`,
 * `messageId` of a sent message) or the tracking id of a send of this server (it then acts on the
 * message that send made, with its client). Each is queued like a send: 202 with the tracking id,
 * or 201 with `Prefer: wait=N` once made.
 */
import type { Context } from 'koa';
import { WakitError, type BotClient } from '../../../src/index.js';
import * as contract from '../../../src/entries/contract.js';
import type { Principal } from '../middleware/auth.js';
import { resolveClient, visibleClients, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { MessageAccepted, MessageSent } from '../schemas/api-schemas.js';
import { ActionMessageIdParam, ForwardRequest } from '../schemas/action-schemas.js';
import { enqueueAndRespond, findSend } from './messages.js';
import { z } from 'zod';

const TRACKING_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The WhatsApp message id and client an `{id}` names. */
export async function resolveMessage(
  rc: RestContext,
  principal: Principal,
  id: string,
  clientName: string | undefined,
): Promise<{ messageId: string; client: BotClient }> {
  if (!TRACKING_ID.test(id)) {
    if (contract.chatOfMessageId(id) === null) {
      throw new WakitError('VALIDATION_FAILED', 'Invalid message id', {
        issues: [
          {
            path: 'path.id',
            message:
              'must be a WhatsApp message id (true_<chat>_<id>, false_<chat>_<id>[_<author>]) or a tracking id',
          },
        ],
      });
    }
    return { messageId: id, client: resolveClient(rc, principal, clientName) };
  }
  const record = await findSend(rc, visibleClients(rc, principal), id);
  if (clientName !== undefined && clientName !== record.client) {
    throw new WakitError(
      'VALIDATION_FAILED',
      `Tracking id ${id} belongs to client ${record.client}`,
      {
        issues: [{ path: 'client', message: `must be ${record.client} or absent` }],
      },
    );
  }
  if (!record.messageId) {
    throw new WakitError('MESSAGE_NOT_FOUND', `The send ${id} has no WhatsApp message (yet)`, {
      details: { trackingId: id, status: record.status },
    });
  }
  return { messageId: record.messageId, client: resolveClient(rc, principal, record.client) };
}

export const queuedResponses = {
  201: { description: 'With `Prefer: wait=N`: made within N seconds', schema: MessageSent },
  202: {
    description: 'Accepted and queued (also with `Prefer: wait=N` when not made in time)',
    schema: MessageAccepted,
    headers: { Location: 'URL of the status of this action' },
  },
};

export function actionRoutes(rc: RestContext): AnyRoute[] {
  const params = z.object({ id: ActionMessageIdParam }).strict();
  const errors = [400, 401, 403, 404, 409, 415, 422, 429, 502, 504];
  const run = async (
    ctx: Context,
    principal: Principal,
    id: string,
    clientName: string | undefined,
    prepare: (messageId: string) => contract.PreparedSend,
  ): Promise<void> => {
    const { messageId, client } = await resolveMessage(rc, principal, id, clientName);
    await enqueueAndRespond(rc, ctx, client, prepare(messageId), principal);
  };
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/messages/{id}/forward',
      operationId: 'forwardMessage',
      summary:
        'Forward a message (WhatsApp message id or tracking id) to a person or a group; queued like a send',
      description:
        'The forward is a new message of the target chat: journaled, paced, tracked ' +
        '(`GET /api/v1/messages/{trackingId}`, `message.status`), idempotent with `Idempotency-Key`. ' +
        'An unknown tracking id is 404 `MESSAGE_NOT_FOUND` at once; a WhatsApp message id the ' +
        'account does not have fails the send with `MESSAGE_NOT_FOUND` (404 with `Prefer: wait`).',
      tag: 'messages',
      params,
      body: ForwardRequest,
      responses: queuedResponses,
      errors,
      async handler(ctx, { params: p, body, principal }) {
        await run(ctx, principal, p.id, body.client, (messageId) =>
          contract.prepareForward(messageId, body.chatId),
        );
      },
    }),
  ];
}
