/** Chat modes (docs/handoff.md): who answers a chat, the bot or a person. */

/** `bot`: the bot answers. `human`: a person does (the bot is silent). `closed`: nobody answers. */
export type ChatMode = 'bot' | 'human' | 'closed';

export const CHAT_MODES: readonly ChatMode[] = ['bot', 'human', 'closed'];

/**
 * Who switched a chat's mode: `sdk` (`sdk.chats`), `api` (REST, or a plugin with the `chats`
 * privilege), `operator` (a command), `phone` (the account wrote), `silence` (the bot took over).
 */
export type ChatModeSource = 'sdk' | 'api' | 'operator' | 'phone' | 'silence';

/** A chat's mode as `sdk.chats.mode()` and REST give it. */
export interface ChatModeInfo {
  client: string;
  /** The chat as wakit keys it: a person by one id (LID when known), or a group. */
  chatId: string;
  mode: ChatMode;
  /** When it was set (ISO 8601); absent for a chat that never left the default `bot`. */
  since?: string;
  by?: ChatModeSource;
  /** Automatic `human` (a message from the phone): when the bot takes over again if nobody writes. */
  until?: string;
  /** Why it was set, as its setter said (the ai plugin's handoff: the model's reason). */
  reason?: string;
}

/** What `setMode` may say besides the mode. */
export interface SetChatModeOptions {
  /** Why (at most MAX_MODE_REASON characters): shown with the mode (REST, dashboard, event). */
  reason?: string;
}

/** The longest `reason` kept with a mode. */
export const MAX_MODE_REASON = 500;

/** The `chat.mode` event: a chat's mode changed. */
export interface ChatModeChange {
  client: string;
  chatId: string;
  mode: ChatMode;
  previous: ChatMode;
  by: ChatModeSource;
  at: string;
  until?: string;
  reason?: string;
}
