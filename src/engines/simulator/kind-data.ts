/** The location, poll or cards a simulated message record carries, as MessageData has them. */
import type { MessageKindData } from '../ports/messages.js';
import { parseVCard } from '../vcard.js';
import type { SimInboxMessage } from './types.js';

const NONE: MessageKindData = Object.freeze({});

/** The location, poll or cards of a message, as MessageData carries them. */
export function kindData(record: SimInboxMessage): MessageKindData {
  // the inbound hot path: nothing to copy for text and media
  if (!record.location && !record.poll && !record.vcards) return NONE;
  const data: MessageKindData = {};
  if (record.location) data.location = { ...record.location };
  if (record.poll) data.poll = { ...record.poll, options: [...record.poll.options] };
  if (record.vcards) {
    data.vcards = [...record.vcards];
    data.contacts = record.vcards.map(parseVCard);
  }
  return data;
}
