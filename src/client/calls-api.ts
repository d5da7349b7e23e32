import { WakitError, toWakitError } from '../errors/index.js';
import type { CallData } from '../engines/ports/calls.js';
import type { ClientCore } from './client-core.js';
import { readyEngine } from './ready-engine.js';

export type { CallData } from '../engines/ports/calls.js';

/** Calls: the part of the SDK client that handles incoming calls (event `call`). */
export interface CallsApi {
  /** Rejects a ringing call (id from the `call` event); CALL_NOT_FOUND when it is not ringing. */
  rejectCall(callId: string): Promise<void>;
}

function checkCallId(callId: unknown): string {
  if (typeof callId !== 'string' || !/^[\w.:-]{1,128}$/.test(callId)) {
    throw new WakitError('VALIDATION_FAILED', 'callId must be the id of a call event', {
      issues: [{ path: 'callId', message: 'must be a call id' }],
    });
  }
  return callId;
}

export function callsApi(core: ClientCore): CallsApi {
  return {
    async rejectCall(callId) {
      await readyEngine(core).rejectCall(checkCallId(callId));
    },
  };
}

/**
 * What the client does with an engine's `call`: emits the `call` event; with `calls.reject`, rejects
 * the call and, with `calls.message`, sends that text to the caller through the outbound queue.
 * Failures are logged (a call may be over before it is rejected), never thrown.
 */
export function incomingCallHandler(core: ClientCore): (call: CallData) => void {
  return (call) => {
    core.events.emit('call', { ...call });
    const { reject, message } = core.config.calls;
    if (!reject) return;
    core
      .requireEngine()
      .rejectCall(call.id)
      .then(
        () => core.log.info({ callId: call.id, from: call.from }, 'call rejected (calls.reject)'),
        (error: unknown) =>
          core.log.warn(
            { err: toWakitError(error), callId: call.id },
            'could not reject the call (calls.reject)',
          ),
      );
    if (message === undefined) return;
    core
      .accept(call.from, { kind: 'text', text: message, options: {} }, { priority: 'reply' })
      .then((queued) => queued.result)
      .catch((error: unknown) =>
        core.log.warn(
          { err: toWakitError(error), callId: call.id },
          'the calls.message reply was not sent',
        ),
      );
  };
}
