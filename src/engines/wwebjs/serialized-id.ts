/**
 * Serialized ids of what crosses from WhatsApp Web to Node. A wid is `{ _serialized }` (or the
 * string); a message key is `{ fromMe, remote, id, participant?, _serialized }`, and its serialized
 * form is `<fromMe>_<remote>_<id>[_<participant>]` (WhatsApp Web's `MsgKey#toString`).
 *
 * Since WhatsApp Web 2.3000.1042401057 a message key keeps its serialized form in a minified
 * field (`$1`), not `_serialized` (whatsapp-web.js #201830, PRs #201832, #201847, #201848; wa-js
 * #3484, #3488). The page-side fix (compat/msg-key-serialized.ts) reads it through an accessor,
 * but what crosses to Node by JSON (reaction keys, a poll vote's `parentMsgKey`, a message model
 * made before the fix is in) carries own fields only: the id is rebuilt here from its parts.
 */
import type { MessageLike } from './types.js';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** A wid (or anything with `_serialized`) as its string; undefined when it is none. */
export function widText(value: unknown): string | undefined {
  if (typeof value === 'string') return text(value);
  if (value && typeof value === 'object' && '_serialized' in value) return text(value._serialized);
  return undefined;
}

/**
 * A wid or message key as its serialized string: the string itself, `_serialized`, or, for a
 * message key without it, `<fromMe>_<remote>_<id>[_<participant>]`; undefined when it is none.
 */
export function serializedId(value: unknown): string | undefined {
  const own = widText(value);
  if (own || !value || typeof value !== 'object') return own;
  const key = value as { fromMe?: unknown; remote?: unknown; id?: unknown; participant?: unknown };
  const remote = widText(key.remote);
  const id = text(key.id);
  if (typeof key.fromMe !== 'boolean' || !remote || !id) return undefined;
  const participant = widText(key.participant);
  return `${key.fromMe}_${remote}_${id}${participant ? `_${participant}` : ''}`;
}

/**
 * Gives a whatsapp-web.js `Message` whose id crossed without `_serialized` its serialized id, in
 * place: wakit's cache, its events and the library's own methods (`react`, `edit`, `delete`,
 * `getQuotedMessage` read `this.id._serialized`) then see the same id. Returns the message.
 */
export function withSerializedId<M extends Pick<MessageLike, 'id'>>(message: M): M {
  const id = message?.id as unknown;
  if (!id || typeof id !== 'object' || widText(id)) return message;
  const rebuilt = serializedId(id);
  if (rebuilt) (id as { _serialized?: string })._serialized = rebuilt;
  return message;
}
