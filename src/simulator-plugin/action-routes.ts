/**
 * The simulator's routes for message actions: the phone {number} reacts to, edits or deletes a
 * message, and what it saw others do (reactions, edits, deletions, typing, read receipts). The
 * dashboard's chat panel uses them. They need a token for all clients.
 */
import { z } from 'zod';
import type { PluginHttp } from '../entries/http.js';
import type { SimulatorNetwork } from '../engines/simulator/index.js';
import { PhoneParam, SimActionList, SimEditRequest, SimReactionRequest } from './schemas.js';

export function actionRoutes(http: Pick<PluginHttp, 'route'>, simulator: SimulatorNetwork): void {
  const phone = z.object({ number: PhoneParam }).strict();
  const message = z.object({ number: PhoneParam, id: z.string().min(1).max(256) }).strict();
  const errors = [400, 401, 403, 404, 409, 415];
  http.route({
    method: 'POST',
    path: '/phones/:number/reactions',
    operationId: 'simulatorReact',
    summary: 'Simulator: the phone {number} reacts to a message ("" removes its reaction)',
    allClients: true,
    params: phone,
    body: SimReactionRequest,
    responses: { 204: { description: 'Reacted' } },
    errors,
    async handler({ params, body }) {
      await simulator.phone(params.number).react(body.messageId, body.emoji);
      return { status: 204 };
    },
  });
  http.route({
    method: 'PATCH',
    path: '/phones/:number/messages/:id',
    operationId: 'simulatorEdit',
    summary: 'Simulator: the phone {number} edits one of its messages (within 15 minutes)',
    allClients: true,
    params: message,
    body: SimEditRequest,
    responses: { 204: { description: 'Edited' } },
    errors,
    async handler({ params, body }) {
      await simulator.phone(params.number).edit(params.id, body.text);
      return { status: 204 };
    },
  });
  http.route({
    method: 'DELETE',
    path: '/phones/:number/messages/:id',
    operationId: 'simulatorRevoke',
    summary: 'Simulator: the phone {number} deletes a message for everyone',
    allClients: true,
    params: message,
    responses: { 204: { description: 'Deleted for everyone' } },
    errors,
    async handler({ params }) {
      await simulator.phone(params.number).revoke(params.id);
      return { status: 204 };
    },
  });
  http.route({
    method: 'GET',
    path: '/phones/:number/actions',
    operationId: 'simulatorActions',
    summary:
      'Simulator: reactions, edits, deletions, typing and read receipts the phone {number} saw',
    allClients: true,
    params: phone,
    responses: { 200: { description: 'Oldest first', schema: SimActionList } },
    errors: [400, 401, 403],
    handler({ params }) {
      return { body: simulator.phone(params.number).actions.map((a) => ({ ...a })) };
    },
  });
}
