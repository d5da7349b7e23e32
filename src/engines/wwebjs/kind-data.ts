/** What a received whatsapp-web.js message carries beyond text and media (structures/Message.js:173-195). */
import type { MessageKindData } from '../ports/messages.js';
import { parseVCard } from '../vcard.js';
import type { MessageLike } from './types.js';

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/**
 * The location, cards or poll of a received message. A location's `body` is WhatsApp Web's JPEG
 * thumbnail (base64): the description (`name\naddress`) takes its place.
 */
export function kindDataOf(message: MessageLike): MessageKindData & { body?: string } {
  const data: MessageKindData & { body?: string } = {};
  if (message.type === 'location' && message.location) {
    const { latitude, longitude, name, address, url } = message.location;
    data.location = { latitude: num(latitude), longitude: num(longitude) };
    if (text(name)) data.location.name = name;
    if (text(address)) data.location.address = address;
    if (text(url)) data.location.url = url;
    data.body = [text(name), text(address)].filter(Boolean).join('\n');
  }
  if ((message.type === 'vcard' || message.type === 'multi_vcard') && message.vCards) {
    data.vcards = message.vCards.filter((v): v is string => typeof v === 'string');
    data.contacts = data.vcards.map(parseVCard);
  }
  if (message.type === 'poll_creation' && Array.isArray(message.pollOptions)) {
    data.poll = {
      question: message.pollName ?? message.body ?? '',
      options: message.pollOptions.map((o) => o.name),
      allowMultipleAnswers: Boolean(message.allowMultipleAnswers),
    };
  }
  return data;
}
