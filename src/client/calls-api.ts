import { toWakitError } from '../errors/index.js';
import type { CallData } from '../engines/ports/calls.js';
import type { ClientCore } from './client-core.js';
import type { Managers } from '../capabilities/registry.js';

export type { CallData } from '../engines/ports/calls.js';

/** Calls, `client.calls`: the manager built from src/capabilities/calls.ts. */
export type CallsApi = Managers['calls'];

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
      .ops.calls.reject(call.id)
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
