/** What the simulator's model of message actions and presence (actions.ts) shows phones and bots. */
import type { EditUpdate, ReactionUpdate, RevokeUpdate } from '../ports/actions.js';
import type { ChatState, ChatStateUpdate } from '../ports/presence.js';
import type { SimAccount, SimRecord } from './account.js';
import type { SimChannelImpl } from './channel.js';
import type { SimGroupImpl } from './group.js';

/** What a phone saw someone else do in one of its chats (ids as this phone knows them). */
export interface SimActionEvent {
  type: 'reaction' | 'edit' | 'revoke' | 'chat-state' | 'seen';
  /** Who did it (`@c.us`, or `@lid` where the phone sees them by LID). */
  by: string;
  /** The chat as this phone sees it. */
  chatId: string;
  /** The message concerned (reaction, edit, revoke): its id as in `inbox` and `send()` results. */
  messageId?: string;
  /** `reaction`: the emoji, `''` when removed. */
  emoji?: string;
  /** `edit`: the new text. */
  body?: string;
  /** `edit`, `revoke`: the text before. */
  previousBody?: string;
  /** `chat-state`: typing, recording or paused. */
  state?: ChatState;
  /** When it happened (ms since epoch). */
  at: number;
}

/** What a phone can do with messages and see of others' actions (part of `SimPhone`). */
export interface SimPhoneActions {
  /** Reacts to a message this phone sees (`''` removes its reaction). */
  react(messageId: string, emoji: string): Promise<void>;
  /** Edits one of its own messages (within 15 minutes). */
  edit(messageId: string, text: string): Promise<void>;
  /** Deletes a message for everyone: its own, or any in a group it administers (2 days 12 hours). */
  revoke(messageId: string): Promise<void>;
  /** Shows "typing…" / "recording…" in a chat, or stops (`paused`). */
  setChatState(chatId: string, state: ChatState): Promise<void>;
  /** Reactions, edits, deletions, chat states and read receipts of others in its chats, oldest first. */
  readonly actions: ReadonlyArray<SimActionEvent>;
  /** First `actions` event matching `predicate`, already seen or the next; TIMEOUT after `timeoutMs`. */
  waitForAction(
    predicate?: (event: SimActionEvent) => boolean,
    timeoutMs?: number,
  ): Promise<SimActionEvent>;
  /** The account's presence as set by `setOnline` of a client linked to it (null: never set). */
  readonly online: boolean | null;
  /** The reactions on a message: reactor id → emoji. */
  reactionsOn(messageId: string): ReadonlyMap<string, string>;
}

/** What a linked bot engine receives: the engine event to emit, already seen from its account. */
export type SimActionNotice =
  | { event: 'message.reaction'; update: ReactionUpdate }
  | { event: 'message.edit'; update: EditUpdate }
  | { event: 'message.revoke'; update: RevokeUpdate }
  | { event: 'chat.state'; update: ChatStateUpdate };

/** The device hook of a linked engine (see LinkedDevice in account.ts). */
export interface ActionDevice {
  receiveAction?(notice: SimActionNotice): void;
}

/** What the model needs of the network. */
export interface ActionsNetwork {
  findMessage(messageId: string): SimRecord | undefined;
  findGroup(id: string): SimGroupImpl | undefined;
  findChannel(id: string): SimChannelImpl | undefined;
  person(id: string): SimAccount | undefined;
}
