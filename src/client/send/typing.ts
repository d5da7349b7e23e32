import type { ChatState } from '../../engines/ports/presence.js';
import type { OutgoingContent } from '../types.js';
import { typingDelayMs } from './deliver-action.js';

/**
 * The `typing` send option (docs/messages.md, "Typing per reply"): `true` shows "typing…" for a
 * time that fits the text (30 ms a character, 0.5–4 s; 2 s for anything else), a number shows it
 * for that many milliseconds (at most `TYPING_OPTION_MAX_MS`). A voice note or audio shows
 * "recording…" instead. Journaled with the content, so a recovered send shows it too.
 */
export type TypingOption = boolean | number;

/** WhatsApp clears a chat state after about 25 s: longer would show nothing at the end. */
export const TYPING_OPTION_MAX_MS = 20_000;
const DEFAULT_MS = 2_000;

/** The content with its typing option journaled alongside. */
export type TypedContent = OutgoingContent & { typing?: TypingOption };

export function withTyping(
  content: OutgoingContent,
  typing: TypingOption | undefined,
): TypedContent {
  return typing === undefined || typing === false ? content : { ...content, typing };
}

/** What to show before `content` goes, and for how long; undefined for none. */
export function typingOf(content: TypedContent): { state: ChatState; ms: number } | undefined {
  const option = content.typing;
  if (option === undefined || option === false) return undefined;
  const state: ChatState = content.kind === 'audio' ? 'recording' : 'typing';
  if (typeof option === 'number') {
    return { state, ms: Math.min(Math.max(0, Math.round(option)), TYPING_OPTION_MAX_MS) };
  }
  return { state, ms: content.kind === 'text' ? typingDelayMs(content.text) : DEFAULT_MS };
}
