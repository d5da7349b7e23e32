/**
 * Calls on the simulator: `POST /api/v1/simulator/phones/{number}/calls` (a phone calls a client
 * or anyone). Rejecting a call is a declared capability (capability-routes.ts).
 */
import { z } from 'zod';
import { WakitError, normalizeChatId } from '../../../src/index.js';
import type { Principal } from '../auth.js';
import { resolveClient, type RestContext, type RestHost } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { PhoneParam } from '../schemas.js';
import { SimCallPlaced, SimCallRequest } from './chat-schemas.js';

function requireAll(principal: Principal): void {
  if (principal.clients !== '*') {
    throw new WakitError('FORBIDDEN', 'Simulator routes need a token for all clients');
  }
}

export function callRoutes(rc: RestContext, sdk: RestHost): AnyRoute[] {
  const simulator = sdk.simulator;
  if (!simulator) return [];
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/simulator/phones/{number}/calls',
      operationId: 'simulatorCall',
      summary: "Simulator: the phone {number} calls (a client's number by default)",
      tag: 'simulator',
      params: z.object({ number: PhoneParam }).strict(),
      body: SimCallRequest,
      responses: { 201: { description: 'Ringing (or already rejected)', schema: SimCallPlaced } },
      errors: [400, 401, 403, 404, 409, 415],
      handler(ctx, { params, body, principal }) {
        requireAll(principal);
        let to = body.to !== undefined ? normalizeChatId(body.to, 'to') : undefined;
        if (to === undefined) {
          const client = resolveClient(rc, principal, body.client);
          ctx.state.client = client.name;
          const me = client.info().me;
          if (!me) {
            throw new WakitError('CLIENT_NOT_READY', `Client ${client.name} is not linked yet`, {
              details: { client: client.name, state: client.state },
            });
          }
          to = me.id;
        }
        const call = simulator
          .phone(params.number)
          .call(to, body.video !== undefined ? { video: body.video } : {});
        ctx.status = 201;
        ctx.body = { id: call.id, to: call.to, state: call.state };
      },
    }),
  ];
}
