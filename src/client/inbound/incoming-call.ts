import { isWakitError } from '../../errors/index.js';
import type { CallData } from '../../engines/ports/calls.js';
import type { ClientCore } from '../core/client-core.js';

/**
 * What the client does with an engine's `call`: emits the `call` event; with `calls.reject`, rejects
 * the call and, with `calls.message`, sends that text to the caller through the outbound queue.
 * Failures go to the error sink (source `client`, event `call.reject` or `call.message`), never thrown.
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
          // a call the caller ended first is over: nothing failed
          isWakitError(error, 'CALL_NOT_FOUND')
            ? core.log.debug({ callId: call.id }, 'the call ended before calls.reject')
            : core.report('call.reject', error),
      );
    if (message === undefined) return;
    core
      .accept(call.from, { kind: 'text', text: message, options: {} }, { priority: 'reply' })
      .then((queued) => queued.result)
      .catch((error: unknown) => core.report('call.message', error));
  };
}
