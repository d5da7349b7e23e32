import { WakitError } from '../../errors/index.js';
import type { Engine } from '../../engines/engine.js';
import type { ClientCore } from './client-core.js';

/**
 * The engine for a read or an immediate action (chats, contacts, calls: not queued): only while
 * the client is READY, else CLIENT_NOT_READY with the state.
 */
export function readyEngine(core: ClientCore): Engine {
  const state = core.state();
  if (state !== 'READY') {
    throw new WakitError('CLIENT_NOT_READY', `Client ${core.name} is ${state}, not READY`, {
      details: { client: core.name, state },
    });
  }
  return core.requireEngine();
}
