/** Calls (docs/calls.md): rejecting a ringing call, the id of a `call` event. */
import { z } from 'zod';
import { defineCapability } from './define.js';

export const callIdSchema = z.string().regex(/^[\w.:-]{1,128}$/, 'must be a call id');

export const calls = {
  reject: defineCapability({
    name: 'calls.reject',
    summary:
      'Reject a ringing call (the id of a `call` event); CALL_NOT_FOUND when it is not ringing',
    docs: 'docs/calls.md',
    mode: 'direct',
    input: z.object({ callId: callIdSchema }).strict(),
    args: ['callId'],
    errors: ['CALL_NOT_FOUND'],
    run: (engine, { callId }) => engine.ops.calls.reject(callId),
    http: {
      method: 'POST',
      path: '/calls/{id}/reject',
      operationId: 'rejectCall',
      summary: 'Reject a ringing call (the id of a `call` event)',
      tag: 'calls',
      params: z.object({ id: callIdSchema }).strict(),
      toInput: ({ params }) => ({ callId: params.id as string }),
      status: 200,
      response: {
        description: 'Rejected',
        component: 'CallRejected',
        schema: z.object({ id: z.string(), status: z.literal('rejected') }).strict(),
      },
      toBody: (_result, { callId }) => ({ id: callId, status: 'rejected' }),
      errors: [400, 401, 403, 404, 409, 502],
    },
  }),
};
