import type { Ack, AckUpdate, MessageData } from '../types.js';
import type { MessageLike } from './types.js';
import { kindDataOf } from './kind-data.js';
import { serializedId, widText, withSerializedId } from './serialized-id.js';

/** whatsapp-web.js `MessageAck` values are ours already (-1..4); anything else counts as pending. */
export function toAck(value: unknown): Ack {
  return typeof value === 'number' && Number.isInteger(value) && value >= -1 && value <= 4
    ? (value as Ack)
    : 0;
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** The conversation of a message: the peer for own messages, the sender (or group) otherwise. */
export function chatIdOf(message: Pick<MessageLike, 'fromMe' | 'from' | 'to'>): string {
  return message.fromMe ? message.to : message.from;
}

/**
 * A whatsapp-web.js `Message` as plain data: only primitives are copied, so nothing of the
 * library (client, page, raw model) leaks out. An id that crossed without `_serialized` (a
 * renamed message key, serialized-id.ts) is given it first.
 */
export function toMessageData(message: MessageLike, meId?: string): MessageData {
  withSerializedId(message);
  const raw = message._data ?? {};
  const chatId = chatIdOf(message);
  const data: MessageData = {
    id: message.id._serialized,
    body: typeof message.body === 'string' ? message.body : '',
    from: message.from,
    to: message.to,
    chatId,
    timestamp: typeof message.timestamp === 'number' ? message.timestamp : 0,
    hasMedia: Boolean(message.hasMedia),
    isGroup: chatId.endsWith('@g.us'),
    broadcast: Boolean(message.broadcast),
    hasQuotedMsg: Boolean(message.hasQuotedMsg),
    fromMe: Boolean(message.fromMe),
    type: typeof message.type === 'string' ? message.type : 'unknown',
    ack: toAck(message.ack),
    sender: { id: '' },
    mentionedIds: (Array.isArray(message.mentionedIds) ? message.mentionedIds : [])
      .map(widText)
      .filter((id): id is string => id !== undefined),
    isChannel: chatId.endsWith('@newsletter'),
    // structures/Message.js:130: `isStatusV3 || id.remote === 'status@broadcast'`.
    isStatus: Boolean(message.isStatus) || chatId === 'status@broadcast',
  };
  const author = str(message.author);
  if (author) data.author = author;
  if (message.isForwarded) data.isForwarded = true;
  const notifyName = str(raw.notifyName);
  if (notifyName) data.notifyName = notifyName;
  // The sender as the message carries it (`author` in groups and on status, else `from`); the
  // client completes lid/phone through `ops.contacts.resolve` (getContactLidAndPhone).
  if (data.fromMe) data.sender = { id: meId ?? message.from, ...(meId ? { phone: meId } : {}) };
  else if (data.isChannel) data.sender = { id: chatId };
  else
    data.sender = { id: author ?? message.from, ...(notifyName ? { pushname: notifyName } : {}) };
  if (message.hasQuotedMsg) {
    const quoted = serializedId(raw.quotedMsgId) ?? quotedIdFromStanza(raw, chatId, meId);
    if (quoted) data.quotedMessageId = quoted;
  }
  if (message.hasMedia) {
    const mimetype = str(raw.mimetype);
    if (mimetype) {
      const media: NonNullable<MessageData['media']> = { mimetype };
      const filename = str(raw.filename);
      if (filename) media.filename = filename;
      if (typeof raw.size === 'number') media.size = raw.size;
      data.media = media;
    }
  }
  Object.assign(data, kindDataOf(message));
  return data;
}

/**
 * WhatsApp Web keeps the quoted message's stanza id and participant; the serialized id is
 * `<fromMe>_<chat>_<stanza>[_<participant>]`.
 */
function quotedIdFromStanza(
  raw: Record<string, unknown>,
  chatId: string,
  meId: string | undefined,
): string | undefined {
  const stanza = str(raw.quotedStanzaID);
  if (!stanza) return undefined;
  const participant = widText(raw.quotedParticipant);
  const fromMe = participant !== undefined && participant === meId;
  const group = chatId.endsWith('@g.us');
  return `${fromMe}_${chatId}_${stanza}${group && participant ? `_${participant}` : ''}`;
}

export function toAckUpdate(message: MessageLike, ack: unknown): AckUpdate {
  withSerializedId(message);
  return { messageId: message.id._serialized, chatId: chatIdOf(message), ack: toAck(ack) };
}
