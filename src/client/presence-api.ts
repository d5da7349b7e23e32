import type { ChatState } from '../engines/ports/presence.js';
import type { ClientCore } from './client-core.js';
import { prepareAction } from './action-contract.js';
import type { ActionOptions } from './actions-api.js';
import type { SendResult } from './types.js';

/**
 * Presence and read state: the part of the SDK client that shows "typing…", marks chats read and
 * sets the account online or offline. Each goes through the outbound queue with light pacing
 * (docs/queue.md) and resolves once made (`{ id: '', trackingId }`). See docs/presence.md.
 */
export interface PresenceApi {
  /** Marks every message of the chat as read (their senders see blue ticks). */
  markChatSeen(chatId: string, options?: ActionOptions): Promise<SendResult>;
  /** Shows "typing…" or "recording audio…" in the chat (WhatsApp clears it after ~25 s), or stops it (`paused`). */
  sendPresence(chatId: string, state: ChatState, options?: ActionOptions): Promise<SendResult>;
  /** Shows this account online (`true`) or offline (`false`) to its contacts. */
  setOnline(online: boolean, options?: ActionOptions): Promise<SendResult>;
}

export function presenceApi(core: ClientCore): PresenceApi {
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
  const self = (): string => {
    try {
      return core.requireEngine().me()?.id ?? '';
    } catch {
      // not reported: no engine yet means no own id (the answer is empty)
      return '';
    }
  };
  return {
    markChatSeen: (chatId, options) => run(() => prepareAction('seen', { chatId }), options),
    sendPresence: (chatId, state, options) =>
      run(() => prepareAction('presence', { chatId, state }), options),
    setOnline: (online, options) => run(() => prepareAction('online', { online }, self()), options),
  };
}
