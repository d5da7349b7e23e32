/**
 * Sends and look-ups on a READY whatsapp-web.js client, with errors mapped to our codes.
 * Stateless: the engine passes the client, the message cache and the bindings.
 */
import type { ContactInfo, EngineContent, MediaFile } from '../types.js';
import { WakitError } from '../../errors/index.js';
import type { CreatedWaiter } from './attempt.js';
import { mapSendError } from './map-errors.js';
import { isMessageKindContent, type MessageKindContent } from '../ports/messages.js';
import { kindSendArguments } from './messages.js';
import type {
  ChatLike,
  ClientLike,
  MessageLike,
  SendOptionsLike,
  WwebjsBindings,
} from './types.js';

/**
 * Resolves the chat to send to, failing early with a clear code:
 * - `@c.us`: `getNumberId` (unregistered numbers → `CHAT_NOT_FOUND`); its id is used, since
 *   WhatsApp may know a number under a slightly different id;
 * - `@g.us`: the group must exist (`CHAT_NOT_FOUND`), the account must be a member, and in
 *   "only admins can send" groups an admin (`PERMISSION_DENIED`).
 */
export async function resolveTarget(
  client: ClientLike,
  chatId: string,
  meId: string | undefined,
): Promise<string> {
  try {
    if (chatId.endsWith('@c.us')) {
      const wid = await client.getNumberId(chatId);
      if (!wid) throw notFound(chatId, 'is not registered on WhatsApp');
      return wid._serialized;
    }
    if (chatId.endsWith('@g.us')) {
      const chat = await client.getChatById(chatId);
      if (!chat) throw notFound(chatId, 'does not exist');
      checkGroupPermission(chat, chatId, meId);
    }
    return chatId;
  } catch (error) {
    throw mapSendError(error, chatId);
  }
}

function checkGroupPermission(chat: ChatLike, chatId: string, meId: string | undefined): void {
  if (!chat.isGroup || !meId || !Array.isArray(chat.participants)) return;
  const me = chat.participants.find((p) => p.id._serialized === meId);
  if (!me) {
    throw new WakitError('PERMISSION_DENIED', `This account is not a member of group ${chatId}`, {
      details: { chatId },
    });
  }
  if (chat.isReadOnly && !me.isAdmin && !me.isSuperAdmin) {
    throw new WakitError('PERMISSION_DENIED', `Only admins can send to group ${chatId}`, {
      details: { chatId },
    });
  }
}

const notFound = (chatId: string, what: string): WakitError =>
  new WakitError('CHAT_NOT_FOUND', `Chat ${chatId} ${what}`, { details: { chatId } });

/** `sendMessage` arguments for our content: text with its options, or a MessageMedia. */
export function toSendArguments(
  bindings: WwebjsBindings,
  content: Exclude<EngineContent, MessageKindContent>,
): [content: string | ReturnType<WwebjsBindings['createMedia']>, options: SendOptionsLike] {
  if (content.kind === 'text') {
    const { linkPreview, sendSeen, mentions, quotedMessageId } = content.options;
    const options: SendOptionsLike = {};
    if (linkPreview !== undefined) options.linkPreview = linkPreview;
    if (sendSeen !== undefined) options.sendSeen = sendSeen;
    if (mentions && mentions.length > 0) options.mentions = [...mentions];
    if (quotedMessageId) options.quotedMessageId = quotedMessageId;
    return [content.text, options];
  }
  const { media } = content;
  const messageMedia = bindings.createMedia(
    media.mimetype,
    media.data.toString('base64'),
    media.filename,
  );
  const options: SendOptionsLike = {};
  if (content.caption) options.caption = content.caption;
  if (content.kind === 'sticker') options.sendMediaAsSticker = true;
  if (content.kind === 'document') options.sendMediaAsDocument = true;
  if (content.quotedMessageId) options.quotedMessageId = content.quotedMessageId;
  return [messageMedia, options];
}

export async function sendContent(
  client: ClientLike,
  bindings: WwebjsBindings,
  chatId: string,
  content: EngineContent,
  meId: string | undefined,
): Promise<MessageLike> {
  const target = await resolveTarget(client, chatId, meId);
  const [payload, options] = isMessageKindContent(content)
    ? await kindSendArguments(client, bindings, content, chatId)
    : toSendArguments(bindings, content);
  let sent: MessageLike | null | undefined;
  try {
    sent = await client.sendMessage(target, payload, options);
  } catch (error) {
    throw mapSendError(error, chatId);
  }
  // whatsapp-web.js resolves to undefined when WhatsApp Web has no such chat.
  if (!sent) throw notFound(chatId, 'does not exist');
  return sent;
}

/** A message by id: from the engine's cache, else from WhatsApp Web; `MESSAGE_NOT_FOUND` otherwise. */
export async function findMessage(
  client: ClientLike,
  cached: MessageLike | undefined,
  messageId: string,
): Promise<MessageLike> {
  if (cached) return cached;
  let message: MessageLike | null;
  try {
    message = await client.getMessageById(messageId);
  } catch (error) {
    if (/invalid serialized message id/i.test(String((error as Error)?.message ?? error)))
      message = null;
    else
      throw new WakitError('ENGINE_ERROR', 'whatsapp-web.js could not look up the message', {
        cause: error,
      });
  }
  if (!message) {
    throw new WakitError('MESSAGE_NOT_FOUND', `Message ${messageId} not found`, {
      details: { messageId },
    });
  }
  return message;
}

export async function downloadMessageMedia(message: MessageLike): Promise<MediaFile> {
  const messageId = message.id._serialized;
  if (!message.hasMedia) {
    throw new WakitError('MEDIA_NOT_FOUND', `Message ${messageId} has no media`, {
      details: { messageId },
    });
  }
  let media;
  try {
    media = await message.downloadMedia();
  } catch (error) {
    throw new WakitError('ENGINE_ERROR', `Downloading the media of ${messageId} failed`, {
      details: { messageId },
      cause: error,
    });
  }
  if (!media) {
    throw new WakitError('MEDIA_NOT_FOUND', `The media of ${messageId} is no longer available`, {
      details: { messageId },
    });
  }
  const file: MediaFile = { data: Buffer.from(media.data, 'base64'), mimetype: media.mimetype };
  if (media.filename) file.filename = media.filename;
  return file;
}

/**
 * Whether a member is a group admin. `getChatModel` turns participant ids into phone ids where it
 * can (`toPn`, Injected/Utils.js:961-965), so a `@lid` member is matched by its phone as well.
 */
export async function isGroupAdmin(
  client: ClientLike,
  groupId: string,
  memberId: string,
): Promise<boolean> {
  let chat: ChatLike | undefined;
  try {
    chat = await client.getChatById(groupId);
  } catch (error) {
    throw mapSendError(error, groupId);
  }
  if (!chat?.isGroup || !Array.isArray(chat.participants)) return false;
  const ids = new Set([memberId]);
  if (memberId.endsWith('@lid')) {
    const contact = await resolveContact(client, memberId);
    if (contact.phone) ids.add(contact.phone);
  }
  const member = chat.participants.find((p) => ids.has(p.id._serialized));
  return Boolean(member && (member.isAdmin || member.isSuperAdmin));
}

/**
 * A person's LID and phone through `getContactLidAndPhone` (Client.js:3307), plus the pushname
 * from `getContactById` when it answers. Unknown users are `isRegistered: false`.
 */
export async function resolveContact(client: ClientLike, id: string): Promise<ContactInfo> {
  let entry: { lid?: string; pn?: string } | undefined;
  try {
    [entry] = await client.getContactLidAndPhone([id]);
  } catch (error) {
    throw mapSendError(error, id);
  }
  if (!entry?.lid && !entry?.pn) return { id, isRegistered: false };
  const info: ContactInfo = { id, isRegistered: true };
  if (entry.lid) info.lid = entry.lid;
  if (entry.pn) info.phone = entry.pn;
  // not reported: the push name is optional; the ids are the answer
  const contact = await client.getContactById(entry.pn ?? entry.lid ?? id).catch(() => null);
  if (contact?.pushname) info.pushname = contact.pushname;
  return info;
}

/**
 * `Message#forward` resolves to nothing; the id of the copy is taken from its `message_create`
 * (`created`), else from the chat's last own message. Empty when neither is seen.
 */
export async function forwardMessage(
  client: ClientLike,
  message: MessageLike,
  target: string,
  created: CreatedWaiter,
): Promise<string> {
  try {
    await message.forward(target);
  } catch (error) {
    created.resolve(null);
    throw new WakitError('ENGINE_ERROR', `Forwarding ${message.id._serialized} failed`, {
      cause: error,
      details: { chatId: target },
    });
  }
  const forwarded = await created.promise;
  if (forwarded) return forwarded.id._serialized;
  // not reported: the id is best effort here; the forward itself went out
  const chat = await client.getChatById(target).catch(() => undefined);
  const last = chat?.lastMessage;
  return last?.fromMe ? last.id._serialized : '';
}

/** Digits of a phone number in international format (`+`, spaces, dashes, brackets dropped). */
export function pairingDigits(phoneNumber: string): string {
  const digits = phoneNumber.replace(/[\s+\-()]/g, '');
  if (!/^\d{6,15}$/.test(digits)) {
    throw new WakitError(
      'VALIDATION_FAILED',
      'Phone numbers are 6-15 digits in international format',
      {
        details: { phoneNumber },
      },
    );
  }
  return digits;
}
