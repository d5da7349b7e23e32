import type { EndReason } from './types.js';

/** Thrown through a conversation's code to unwind it (end, cancel, expiry, too many attempts). */
export class ConversationExit extends Error {
  constructor(readonly reason: EndReason) {
    super(`conversation ${reason}`);
  }
}
