/** Making one queued action (reaction, edit, delete, seen, presence, online) through the engine. */
import type { Engine } from '../../engines/engine.js';
import type { ActionContent } from '../types.js';

/** "typing…" lasts 30 ms per character of the text, at least 0.5 s and at most 4 s. */
export const TYPING_MS_PER_CHAR = 30;
export const TYPING_MIN_MS = 500;
export const TYPING_MAX_MS = 4_000;

/** How long `queue.typingBeforeSend` shows "typing…" before a text (by code points). */
export function typingDelayMs(text: string): number {
  let chars = 0;
  for (const _ of text) {
    chars++;
    if (chars * TYPING_MS_PER_CHAR >= TYPING_MAX_MS) return TYPING_MAX_MS;
  }
  return Math.max(TYPING_MIN_MS, chars * TYPING_MS_PER_CHAR);
}

/**
 * Makes the action. Its result id is the message acted on (reaction, edit, delete), or `''` for
 * presence: actions create no message of their own whose acks could be followed.
 */
export async function deliverAction(
  engine: Engine,
  chatId: string,
  content: ActionContent,
): Promise<{ id: string }> {
  switch (content.kind) {
    case 'reaction':
      await engine.ops.actions.react(content.messageId, content.emoji);
      return { id: content.messageId };
    case 'edit':
      await engine.ops.actions.edit(content.messageId, content.text);
      return { id: content.messageId };
    case 'delete':
      await engine.ops.actions.delete(content.messageId, content.forEveryone);
      return { id: content.messageId };
    case 'seen':
      await engine.ops.presence.markSeen(chatId);
      return { id: '' };
    case 'presence':
      await engine.ops.presence.sendState(chatId, content.state);
      return { id: '' };
    case 'online':
      await engine.ops.presence.setOnline(content.online);
      return { id: '' };
  }
}
