/** Building MessageData (what the Engine port emits) from the network's message records. */
import type { EngineContent, MediaFile, MessageData } from '../types.js';
import type { MessageKindContent } from '../ports/messages.js';
import type { SimAccount, SimRecord } from './account.js';
import type { SimPayload } from './phone-payload.js';
import { serializeId } from './ids.js';
import { kindData } from './kind-data.js';

/** Text and media (locations, contacts and polls: `kindPayload`). */
export function payloadOf(content: Exclude<EngineContent, MessageKindContent>): SimPayload {
  if (content.kind === 'text') {
    return {
      type: 'chat',
      body: content.text,
      isForwarded: false,
      quotedMessageId: content.options.quotedMessageId,
      mentionedIds: content.options.mentions,
    };
  }
  return {
    type: content.kind,
    body: content.caption ?? '',
    caption: content.caption,
    media: content.media,
    isForwarded: false,
    quotedMessageId: content.quotedMessageId,
  };
}

function mediaInfo(media: MediaFile): NonNullable<MessageData['media']> {
  return { mimetype: media.mimetype, filename: media.filename, size: media.data.length };
}

const isChannel = (chatId: string): boolean => chatId.endsWith('@newsletter');
const isStatus = (chatId: string): boolean => chatId === 'status@broadcast';

/** A message this account sent (message_create, fromMe). */
export function ownMessage(record: SimRecord, account: SimAccount): MessageData {
  const me = account.id;
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
    mentionedIds: [...record.mentionedIds],
    media: record.media && mediaInfo(record.media),
    sender: { id: me, lid: account.lid, phone: me, pushname: account.pushname },
    isChannel: isChannel(record.target),
    isStatus: isStatus(record.target),
    ...kindData(record),
  };
}

/** A message someone sent to this account (`from` is the group for group messages). */
export function incomingMessage(
  record: SimRecord,
  me: string,
  sender: SimAccount,
  receiver: SimAccount | null,
): MessageData {
  // What a receiver sees, like WhatsApp Web: a LID-addressed sender (or any member of a group in
  // LID addressing mode) by `@lid`; channel posts from the channel; status by its poster.
  const senderId = record.byLid ? sender.lid : sender.id;
  const channel = isChannel(record.chatId);
  const shared = record.isGroup || channel || isStatus(record.chatId);
  const from = shared ? record.chatId : senderId;
  const author = record.isGroup || isStatus(record.chatId) ? senderId : undefined;
  return {
    id: serializeId(false, from, record.stanza, author),
    body: record.body,
    from,
    to: me,
    chatId: from,
    timestamp: record.timestamp,
    hasMedia: record.media !== undefined,
    isGroup: record.isGroup,
    hasQuotedMsg: record.quotedMessageId !== undefined,
    fromMe: false,
    type: record.type,
    ack: 1,
    author,
    quotedMessageId: record.quotedMessageId,
    isForwarded: record.isForwarded,
    mentionedIds: [...record.mentionedIds],
    notifyName: sender.pushname,
    media: record.media && mediaInfo(record.media),
    // What the network knows, as WhatsApp's own look-up would tell this receiver: the LID always,
    // the number unless it is hidden (the client completes the rest through resolveContact()).
    sender: channel ? { id: record.chatId } : senderAs(sender, senderId, receiver),
    isChannel: channel,
    isStatus: isStatus(record.chatId),
    broadcast: isStatus(record.chatId),
    ...kindData(record),
  };
}

function senderAs(
  sender: SimAccount,
  id: string,
  receiver: SimAccount | null,
): MessageData['sender'] {
  return receiver && sender.phoneVisibleTo(receiver)
    ? { id, lid: sender.lid, phone: sender.id, pushname: sender.pushname }
    : { id, lid: sender.lid, pushname: sender.pushname };
}
