import type { QueueOptions } from '../capabilities/define.js';
import type { Managers } from '../capabilities/registry.js';
import type { Engine } from '../engines/engine.js';
import type { EditUpdate, ReactionUpdate, RevokeUpdate } from '../engines/ports/actions.js';
import type { ClientEvents } from './client-events.js';
import type { SafeEmitter } from './core/safe-emitter.js';

/** Options of every action: an idempotency key, as on sends. */
export type ActionOptions = QueueOptions;

/**
 * Message actions, `client.messages`: the manager built from src/capabilities/messages.ts
 * (`react`, `edit`, `delete`; queued like sends). See docs/actions.md.
 */
export type ActionsApi = Managers['messages'];

/** Re-emits the engine's action events as client events. */
export function forwardActionEvents(engine: Engine, events: SafeEmitter<ClientEvents>): void {
  engine.on('message.reaction', (update: ReactionUpdate) =>
    events.emit('message.reaction', update),
  );
  engine.on('message.edit', (update: EditUpdate) => events.emit('message.edit', update));
  engine.on('message.revoke', (update: RevokeUpdate) => events.emit('message.revoke', update));
}
