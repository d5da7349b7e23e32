/**
 * Simulator routes for message actions (only with the simulator engine): the phone {number} reacts
 * to, edits or deletes a message, and what it saw others do (reactions, edits, deletions, typing,
 * read receipts). The dashboard's chat panel uses them. They need a token for all clients.
 */
import { z } from 'zod';
import type { RestContext, RestHost } from '../context.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { PhoneParam } from '../simulator-schemas.js';
import { SimActionList, SimEditRequest, SimReactionRequest } from '../action-schemas.js';
import { requireAll } from './simulator.js';

export function simulatorActionRoutes(_rc: RestContext, sdk: RestHost): AnyRoute[] {
  const simulator = sdk.simulator;
  if (!simulator) return [];
  const phone = z.object({ number: PhoneParam }).strict();
  const message = z.object({ number: PhoneParam, id: z.string().min(1).max(256) }).strict();
  const errors = [400, 401, 403, 404, 409, 415];
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/simulator/phones/{number}/reactions',
      operationId: 'simulatorReact',
      summary: 'Simulator: the phone {number} reacts to a message ("" removes its reaction)',
      tag: 'simulator',
      params: phone,
      body: SimReactionRequest,
      responses: { 204: { description: 'Reacted' } },
      errors,
      async handler(ctx, { params, body, principal }) {
        requireAll(principal);
        await simulator.phone(params.number).react(body.messageId, body.emoji);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/simulator/phones/{number}/messages/{id}',
      operationId: 'simulatorEdit',
      summary: 'Simulator: the phone {number} edits one of its messages (within 15 minutes)',
      tag: 'simulator',
      params: message,
      body: SimEditRequest,
      responses: { 204: { description: 'Edited' } },
      errors,
      async handler(ctx, { params, body, principal }) {
        requireAll(principal);
        await simulator.phone(params.number).edit(params.id, body.text);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/simulator/phones/{number}/messages/{id}',
      operationId: 'simulatorRevoke',
      summary: 'Simulator: the phone {number} deletes a message for everyone',
      tag: 'simulator',
      params: message,
      responses: { 204: { description: 'Deleted for everyone' } },
      errors,
      async handler(ctx, { params, principal }) {
        requireAll(principal);
        await simulator.phone(params.number).revoke(params.id);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/simulator/phones/{number}/actions',
      operationId: 'simulatorActions',
      summary:
        'Simulator: reactions, edits, deletions, typing and read receipts the phone {number} saw',
      tag: 'simulator',
      params: phone,
      responses: { 200: { description: 'Oldest first', schema: SimActionList } },
      errors: [400, 401, 403],
      handler(ctx, { params, principal }) {
        requireAll(principal);
        ctx.body = simulator.phone(params.number).actions.map((a) => ({ ...a }));
      },
    }),
  ];
}
