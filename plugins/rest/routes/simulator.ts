/**
 * Simulator routes (only with the simulator engine): play a contact writing to the bot and read
 * what the bot sent it. The dashboard's chat panel uses them. They need a token for all clients.
 */
import { z } from 'zod';
import { WakitError, normalizeChatId } from '../../../src/index.js';
import type { RestHost } from '../context.js';
import type { Principal } from '../auth.js';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { PhoneParam, SimInbox, SimSendRequest, SimSent } from '../schemas.js';

function requireAll(principal: Principal): void {
  if (principal.clients !== '*') {
    throw new WakitError('FORBIDDEN', 'Simulator routes need a token for all clients');
  }
}

export function simulatorRoutes(rc: RestContext, sdk: RestHost): AnyRoute[] {
  const simulator = sdk.simulator;
  if (!simulator) return [];
  const params = z.object({ number: PhoneParam }).strict();
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/simulator/phones/{number}/messages',
      operationId: 'simulatorSend',
      summary: "Simulator: the phone {number} sends a text (to a client's number by default)",
      tag: 'simulator',
      params,
      body: SimSendRequest,
      responses: { 201: { description: 'Sent', schema: SimSent } },
      errors: [400, 401, 403, 404, 409, 415],
      async handler(ctx, { params: p, body, principal }) {
        requireAll(principal);
        let to = body.to !== undefined ? normalizeChatId(body.to, 'to') : undefined;
        if (to === undefined) {
          const client = resolveClient(rc, principal, body.client);
          ctx.state.client = client.name;
          const me = client.info().me;
          if (!me) {
            throw new WakitError(
              'CLIENT_NOT_READY',
              `Client ${client.name} is not linked to a number yet`,
              {
                details: { client: client.name, state: client.state },
              },
            );
          }
          to = me.id;
        }
        const sent = await simulator.phone(p.number).send(to, body.text);
        ctx.status = 201;
        ctx.body = { id: sent.id };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/simulator/phones/{number}/inbox',
      operationId: 'simulatorInbox',
      summary: 'Simulator: the last messages the phone {number} received',
      tag: 'simulator',
      params,
      responses: { 200: { description: 'Oldest first', schema: SimInbox } },
      errors: [400, 401, 403],
      handler(ctx, { params: p, principal }) {
        requireAll(principal);
        ctx.body = simulator.phone(p.number).inbox.map((m) => ({
          id: m.id,
          chatId: m.chatId,
          author: m.author,
          type: m.type,
          body: m.body,
          timestamp: m.timestamp,
          ack: m.ack,
          isGroup: m.isGroup,
          ...(m.media
            ? {
                media: {
                  mimetype: m.media.mimetype,
                  ...(m.media.filename !== undefined ? { filename: m.media.filename } : {}),
                  size: m.media.data.length,
                },
              }
            : {}),
        }));
      },
    }),
  ];
}
