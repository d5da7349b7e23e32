import type { Engine } from '../../engines/engine.js';
import type { EditUpdate, ReactionUpdate, RevokeUpdate } from '../../engines/ports/actions.js';
import type { ChatStateUpdate } from '../../engines/ports/presence.js';
import type { ClientEvents } from '../client-events.js';
import type { SafeEmitter } from '../core/safe-emitter.js';

/** Re-emits the engine's action events (reactions, edits, revokes, others' chat states) as client events. */
export function forwardActionEvents(engine: Engine, events: SafeEmitter<ClientEvents>): void {
  engine.on('message.reaction', (update: ReactionUpdate) =>
    events.emit('message.reaction', update),
  );
  engine.on('message.edit', (update: EditUpdate) => events.emit('message.edit', update));
  engine.on('message.revoke', (update: RevokeUpdate) => events.emit('message.revoke', update));
  engine.on('chat.state', (update: ChatStateUpdate) => events.emit('chat.state', update));
}
