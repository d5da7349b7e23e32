/** Scheduled sends over REST (docs/scheduling.md): cancel one, move one (POST …/cancel, …/reschedule). Listed by `GET /messages?status=scheduled`. */
import { z } from 'zod';
import type { RestContext } from '../context.js';
import { visibleClients } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { MessageIdParam, MessageStatus, RescheduleRequest } from '../schemas/api-schemas.js';
import { findSend, statusOf } from './messages.js';

export function scheduledMessageRoutes(rc: RestContext): AnyRoute[] {
  const params = z.object({ id: MessageIdParam }).strict();
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/messages/{id}/cancel',
      operationId: 'cancelMessage',
      summary:
        'Cancel a scheduled send: it never goes (`cancelled`); 409 MESSAGE_NOT_SCHEDULED once its time came',
      tag: 'messages',
      params,
      responses: { 200: { description: 'The send, now `cancelled`', schema: MessageStatus } },
      errors: [401, 404, 409, 501, 503],
      async handler(ctx, { params: { id }, principal }) {
        const record = await findSend(rc, visibleClients(rc, principal), id);
        ctx.state.client = record.client;
        ctx.body = statusOf(await rc.sdk.sends.cancel(id));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/messages/{id}/reschedule',
      operationId: 'rescheduleMessage',
      summary:
        'Move a scheduled send to another `sendAt`; 409 MESSAGE_NOT_SCHEDULED once its time came',
      tag: 'messages',
      params,
      body: RescheduleRequest,
      responses: {
        200: { description: 'The send, `scheduled` at its new time', schema: MessageStatus },
      },
      errors: [400, 401, 404, 409, 501, 503],
      async handler(ctx, { params: { id }, body, principal }) {
        const record = await findSend(rc, visibleClients(rc, principal), id);
        ctx.state.client = record.client;
        ctx.body = statusOf(await rc.sdk.sends.reschedule(id, body.sendAt));
      },
    }),
  ];
}
