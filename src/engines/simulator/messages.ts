/** Building MessageData (what the Engine port emits) from the network's message records. */
import type { EngineContent, MediaFile, MessageData } from '../types.js';
import type { SimRecord } from './account.js';
import type { SimPayload } from './network.js';
import { serializeId } from './ids.js';

export function payloadOf(content: EngineContent): SimPayload {
  if (content.kind === 'text') {
    return {
      type: 'chat',
      body: content.text,
      isForwarded: false,
      quotedMessageId: content.options.quotedMessageId,
      mentions: content.options.mentions,
    };
  }
  return {
    type: content.kind,
    body: content.caption ?? '',
    caption: content.caption,
    media: content.media,
    isForwarded: false,
  };
}

function mediaInfo(media: MediaFile): NonNullable<MessageData['media']> {
  return { mimetype: media.mimetype, filename: media.filename, size: media.data.length };
}

/** A message this account sent (message_create, fromMe). */
export function ownMessage(record: SimRecord, me: string): MessageData {
  return {
    id: record.id,
    body: record.body,
    from: me,
    to: record.target,
    chatId: record.target,
    timestamp: record.timestamp,
    hasMedia: record.media !== undefined,
    isGroup: record.isGroup,
    broadcast: false,
    hasQuotedMsg: record.quotedMessageId !== undefined,
    fromMe: true,
    type: record.type,
    ack: 0,
    author: record.isGroup ? me : undefined,
    quotedMessageId: record.quotedMessageId,
    isForwarded: record.isForwarded,
    media: record.media && mediaInfo(record.media),
  };
}

/** A message someone sent to this account (`from` is the group for group messages). */
export function incomingMessage(
  record: SimRecord,
  me: string,
  senderPushname: string,
): MessageData {
  const from = record.chatId;
  return {
    id: serializeId(false, from, record.stanza, record.isGroup ? record.author : undefined),
    body: record.body,
    from,
    to: me,
    chatId: from,
    timestamp: record.timestamp,
    hasMedia: record.media !== undefined,
    isGroup: record.isGroup,
    broadcast: false,
    hasQuotedMsg: record.quotedMessageId !== undefined,
    fromMe: false,
    type: record.type,
    ack: 1,
    author: record.isGroup ? record.author : undefined,
    quotedMessageId: record.quotedMessageId,
    isForwarded: record.isForwarded,
    notifyName: senderPushname,
    media: record.media && mediaInfo(record.media),
  };
}
