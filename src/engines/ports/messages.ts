/**
 * The message kinds beyond text and media (issue 11, area `messages`): locations, contact cards
 * and polls, sent and received, poll votes, and looking up the message a reply quotes. Types and
 * engine operations of the area (`engine.ops.messages`).
 */
import type { MessageData } from '../types.js';

export * from './message-content.js';

/** Payload of `poll.vote`: a person's current choice on a poll (an empty choice retracts). */
export interface PollVote {
  /** Serialized id of the poll message. */
  pollMessageId: string;
  /** The chat of the poll (the group, or the person in a private chat). */
  chatId: string;
  /** Who voted (`@c.us`, or `@lid` when WhatsApp hides the number). */
  voter: string;
  /** Names of the options now selected, in the poll's order. */
  selectedOptions: string[];
  /** Unix time in seconds. */
  timestamp: number;
}

/** The messages events (part of `EngineEvents`). */
export interface MessageEvents {
  'poll.vote': [vote: PollVote];
}

export interface MessageOps {
  /**
   * The message `messageId` quotes, as this account sees it; null when it quotes nothing or the
   * quoted message is gone. MESSAGE_NOT_FOUND when `messageId` itself is unknown.
   */
  getQuoted(messageId: string): Promise<MessageData | null>;
}
