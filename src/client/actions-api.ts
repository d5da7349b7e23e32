import type { Engine } from '../engines/engine.js';
import type { EditUpdate, ReactionUpdate, RevokeUpdate } from '../engines/ports/actions.js';
import type { ClientCore } from './client-core.js';
import type { ClientEvents } from './client-events.js';
import { prepareAction } from './action-contract.js';
import type { SafeEmitter } from './safe-emitter.js';
import type { SendResult } from './types.js';

/** Options of every action: an idempotency key, as on sends. */
export interface ActionOptions {
  idempotencyKey?: string;
}

/**
 * Message actions: the part of the SDK client that reacts to, edits and deletes messages. Each
 * goes through the outbound queue (tracked, journaled, recovered after a crash) and resolves once
 * made, with `{ id: <the message acted on>, trackingId }`. Message ids are WhatsApp's serialized
 * ids (`message.id`, `SendResult.id`). See docs/actions.md.
 */
export interface ActionsApi {
  /** Reacts to a message with one emoji; `''` removes this account's reaction. */
  sendReaction(messageId: string, emoji: string, options?: ActionOptions): Promise<SendResult>;
  /**
   * Replaces the text (or caption) of one of this account's messages, within WhatsApp's 15-minute
   * edit window: PERMISSION_DENIED for someone else's message, MESSAGE_TOO_OLD after the window.
   */
  editMessage(messageId: string, text: string, options?: ActionOptions): Promise<SendResult>;
  /**
   * Deletes a message. `forEveryone: true`: own messages (or any, in a group this account
   * administers) within 2 days 12 hours; otherwise only on this account's devices (any message).
   */
  deleteMessage(
    messageId: string,
    options?: { forEveryone?: boolean } & ActionOptions,
  ): Promise<SendResult>;
}

export function actionsApi(core: ClientCore): ActionsApi {
  /** Validation errors become rejections, like every other failure of the call. */
  const run = async (
    prepare: () => ReturnType<typeof prepareAction>,
    options: ActionOptions | undefined,
  ): Promise<SendResult> => {
    const send = prepare();
    return (
      await core.accept(send.chatId, send.content, {
        priority: 'normal',
        ...(options?.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      })
    ).result;
  };
  return {
    sendReaction: (messageId, emoji, options) =>
      run(() => prepareAction('reaction', { messageId, emoji }), options),
    editMessage: (messageId, text, options) =>
      run(() => prepareAction('edit', { messageId, text }), options),
    deleteMessage: (messageId, options = {}) =>
      run(
        () => prepareAction('delete', { messageId, forEveryone: options.forEveryone ?? false }),
        options,
      ),
  };
}

/** Re-emits the engine's action events as client events. */
export function forwardActionEvents(engine: Engine, events: SafeEmitter<ClientEvents>): void {
  engine.on('message.reaction', (update: ReactionUpdate) =>
    events.emit('message.reaction', update),
  );
  engine.on('message.edit', (update: EditUpdate) => events.emit('message.edit', update));
  engine.on('message.revoke', (update: RevokeUpdate) => events.emit('message.revoke', update));
}
