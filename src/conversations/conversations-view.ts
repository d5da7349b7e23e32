/**
 * `sdk.conversations` and the `conversations` privileged service (the REST plugin's): active
 * conversations of every client and chat state, for operators (docs/conversations.md).
 */
import type { SendContent } from '../client/send/send-contract.js';
import type { ConversationInfo } from './types.js';

/** `sdk.conversations`: active conversations and chat state (docs/conversations.md). */
export interface SdkConversations {
  list(client?: string): Promise<ConversationInfo[]>;
  get(id: string): Promise<ConversationInfo>;
  start(
    client: string,
    chatId: string,
    name: string,
    options?: { input?: unknown; member?: string },
  ): Promise<ConversationInfo>;
  end(id: string, message?: SendContent): Promise<void>;
  /** A chat's state values (its own and its members'). */
  readState(
    client: string,
    chatId: string,
  ): Promise<{ member?: string; value: unknown; updatedAt: number }[]>;
  /** Erases a chat's state (a person's request to be forgotten); resolves to how many values. */
  eraseState(client: string, chatId: string): Promise<number>;
}

/** What the view reads of the conversation service (structural: no import of the service). */
export interface ConversationsSource extends Omit<SdkConversations, 'readState' | 'eraseState'> {
  readonly states: {
    read: SdkConversations['readState'];
    erase: SdkConversations['eraseState'];
  };
  /** A chat as it is keyed: a person by their one id (LID when known), by phone or by LID. */
  personChat(client: string, chatId: string): Promise<string>;
}

/** The operator's view of `service`. */
export function conversationsView(service: ConversationsSource): SdkConversations {
  return {
    list: (client) => service.list(client),
    get: (id) => service.get(id),
    start: (client, chatId, name, options) => service.start(client, chatId, name, options),
    end: (id, message) => service.end(id, message),
    // a person's state is found by phone or LID alike (keyed by their one id)
    readState: async (client, chatId) =>
      service.states.read(client, await service.personChat(client, chatId)),
    eraseState: async (client, chatId) =>
      service.states.erase(client, await service.personChat(client, chatId)),
  };
}
