/**
 * Presence and read state on the Engine port (`engine.ops.presence`): "typing…", "recording…",
 * online, seen.
 */

export const CHAT_STATES = ['typing', 'recording', 'paused'] as const;
/** What a chat shows of this account: typing, recording audio, or nothing (`paused`). */
export type ChatState = (typeof CHAT_STATES)[number];

/**
 * Payload of `chat.state`: someone else shows "typing…" or "recording audio…" in a chat of this
 * account, or stopped (`paused`). Reported by the simulator; whatsapp-web.js 1.34 reports none
 * (it has no event for others' chat states: docs/turns.md).
 */
export interface ChatStateUpdate {
  /** The chat: the group, or the person's chat in a private chat. */
  chatId: string;
  /** Who types: a `@c.us` or `@lid` id. */
  by: string;
  state: ChatState;
}

/** The presence events (part of `EngineEvents`). */
export interface PresenceEvents {
  'chat.state': [update: ChatStateUpdate];
}

export interface PresenceOps {
  /** Marks every message of the chat as read (blue ticks for their senders). */
  markSeen(chatId: string): Promise<void>;
  /** Shows "typing…" / "recording audio…" in the chat (WhatsApp clears it after ~25 s), or stops. */
  sendState(chatId: string, state: ChatState): Promise<void>;
  /** Shows this account online (available) or offline (unavailable) to its contacts. */
  setOnline(online: boolean): Promise<void>;
}
