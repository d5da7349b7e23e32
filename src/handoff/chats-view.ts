/**
 * `sdk.chats` and what the REST plugin reads: chat modes `bot | human | closed` of every client
 * (docs/handoff.md).
 */
import type { HandoffService } from './handoff-service.js';
import type { ChatMode, ChatModeInfo, SetChatModeOptions } from './types.js';

/** `sdk.chats`: who answers a chat, the bot or a person. */
export interface SdkChats {
  /** A chat's mode (`bot` for a chat never switched); a person by phone or LID alike. */
  mode(client: string, chatId: string): Promise<ChatModeInfo>;
  /**
   * Sets it, with why if given (`reason`, shown with the mode); resolves to the mode now. A
   * `chat.mode` event follows when it changed.
   */
  setMode(
    client: string,
    chatId: string,
    mode: ChatMode,
    options?: SetChatModeOptions,
  ): Promise<ChatModeInfo>;
  /** The chats whose mode was ever set (of one client), those back in `bot` included. */
  modes(client?: string): Promise<ChatModeInfo[]>;
  /** Switches to each mode since this process started (`/metrics`). */
  switches(): Readonly<Record<ChatMode, number>>;
}

/** The operator's view of the handoff service; `by` says who switches (`sdk` or `api`). */
export function chatsView(service: HandoffService, by: 'sdk' | 'api' = 'sdk'): SdkChats {
  return {
    mode: (client, chatId) => service.mode(client, chatId),
    setMode: (client, chatId, mode, options) => service.setMode(client, chatId, mode, by, options),
    modes: (client) => service.list(client),
    switches: () => ({ ...service.switches }),
  };
}
