/**
 * Calls: `POST /api/v1/calls/{id}/reject` (the id of a `call` event). The simulator's phones call
 * through routes/simulator.ts.
 */
import { z } from 'zod';
import { resolveClient, type RestContext } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { CallIdParam, CallRejected, ClientQuery } from './chat-schemas.js';

export function callRoutes(rc: RestContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/calls/{id}/reject',
      operationId: 'rejectCall',
      summary: 'Reject a ringing call (the id of a `call` event)',
      tag: 'calls',
      params: z.object({ id: CallIdParam }).strict(),
      query: ClientQuery,
      responses: { 200: { description: 'Rejected', schema: CallRejected } },
      errors: [400, 401, 403, 404, 409, 502],
      async handler(ctx, { params, query, principal }) {
        const client = resolveClient(rc, principal, query.client);
        ctx.state.client = client.name;
        await client.rejectCall(params.id);
        ctx.body = { id: params.id, status: 'rejected' };
      },
    }),
  ];
}
