/**
 * Calls on whatsapp-web.js 1.34: the client's `call` event carries a `Call` (structures/Call.js)
 * whose `reject()` declines it. Each attempt keeps the calls it was offered, by id, so that
 * `ops.calls.reject(id)` finds the Call object again; WhatsApp Web may report one call more than once
 * (every `set` of its call collection), so each id is emitted once.
 */
import { LRUCache } from 'lru-cache';
import { WakitError } from '../../errors/index.js';
import type { CallData, CallOps } from '../ports/calls.js';
import type { CallLike } from './types.js';

export function toCallData(call: CallLike): CallData {
  return {
    id: String(call.id),
    from: call.from,
    video: Boolean(call.isVideo),
    group: Boolean(call.isGroup),
    timestamp: typeof call.timestamp === 'number' ? call.timestamp : Math.floor(Date.now() / 1000),
  };
}

export class CallBook {
  /** Offered calls not rejected yet (false once rejected: not offered again). */
  private readonly calls = new LRUCache<string, CallLike | false>({ max: 200 });

  /** The call as data the first time it is offered; null for own calls and repeats. */
  offer(call: CallLike): CallData | null {
    if (call.fromMe || !call.id || this.calls.get(String(call.id)) !== undefined) return null;
    this.calls.set(String(call.id), call);
    return toCallData(call);
  }

  async reject(callId: string): Promise<void> {
    const call = this.calls.get(callId);
    if (!call) {
      throw new WakitError('CALL_NOT_FOUND', `No ringing call ${callId} (unknown, or rejected)`, {
        details: { callId },
      });
    }
    this.calls.set(callId, false);
    try {
      await call.reject();
    } catch (error) {
      throw new WakitError('ENGINE_ERROR', `Rejecting call ${callId} failed`, {
        details: { callId },
        cause: error,
      });
    }
  }
}

/** The calls area (`engine.ops.calls`): the ready attempt's CallBook. */
export function callOps(ready: () => { calls: CallBook }): CallOps {
  return { reject: async (callId) => ready().calls.reject(callId) };
}
