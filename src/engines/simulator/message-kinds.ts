/**
 * Locations, contact cards and polls on the virtual network: what such a message carries, who may
 * see it (quotes), and poll votes (who may vote, what is a valid choice, who is told).
 */
import { WakitError } from '../../errors/index.js';
import type { ContactCardInput, MessageKindContent, PollVote } from '../ports/messages.js';
import type { MessageData } from '../types.js';
import { userVCard } from '../vcard.js';
import type { SimAccount, SimRecord } from './account.js';
import { serializeId, toNumber } from './ids.js';
import { incomingMessage, ownMessage } from './messages.js';
import type { SimulatorNetwork } from './network.js';
import type { SimPayload } from './phone-payload.js';
import type { SimKindContent } from './types.js';

const invalid = (message: string, details?: Record<string, unknown>): WakitError =>
  new WakitError('VALIDATION_FAILED', message, details ? { details } : {});

/** `phone.send(chatId, { location | contacts | poll })` rather than text or media. */
export function isKindContent(content: unknown): content is SimKindContent {
  return (
    typeof content === 'object' &&
    content !== null &&
    !('data' in content) &&
    ('location' in content || 'contacts' in content || 'poll' in content)
  );
}

/** What a location, contact or poll send carries through the network. */
export function kindPayload(
  network: SimulatorNetwork,
  sender: SimAccount,
  content: MessageKindContent,
): SimPayload {
  const base = { isForwarded: false, quotedMessageId: content.quotedMessageId };
  if (content.kind === 'location') {
    const { name, address } = content.location;
    // As WhatsApp Web (and whatsapp-web.js's Location): the description is "name\naddress".
    const body = name && address ? `${name}\n${address}` : (name ?? address ?? '');
    return { ...base, type: 'location', body, location: { ...content.location } };
  }
  if (content.kind === 'poll') {
    const poll = { ...content.poll, options: [...content.poll.options] };
    return { ...base, type: 'poll_creation', body: poll.question, poll };
  }
  const vcards = content.contacts.map((card) => vcardOf(network, sender, card));
  // One card is a `vcard` whose body is the card; several a `multi_vcard` without a body.
  const single = vcards.length === 1;
  return {
    ...base,
    type: single ? 'vcard' : 'multi_vcard',
    body: single ? vcards[0] : '',
    vcards,
  };
}

/** A user's card shows the number only when the sender may see it (LID users hide theirs). */
function vcardOf(network: SimulatorNetwork, sender: SimAccount, card: ContactCardInput): string {
  if ('vcard' in card) return card.vcard;
  const person = network.person(card.id);
  if (!person) {
    throw new WakitError('CHAT_NOT_FOUND', `contact ${card.id} is not on WhatsApp`, {
      details: { contactId: card.id },
    });
  }
  return userVCard(person.pushname, person.phoneVisibleTo(sender) ? person.number : undefined);
}

/** A phone's location, contacts or poll, checked as WhatsApp's app would. */
export function phoneKindPayload(
  network: SimulatorNetwork,
  sender: SimAccount,
  content: SimKindContent,
  quotedMessageId?: string,
): SimPayload {
  const quoted = quotedMessageId !== undefined ? { quotedMessageId } : {};
  if ('location' in content) {
    const { latitude, longitude } = content.location;
    if (!(Math.abs(latitude) <= 90) || !(Math.abs(longitude) <= 180)) {
      throw invalid('a location needs latitude -90..90 and longitude -180..180');
    }
    return kindPayload(network, sender, {
      kind: 'location',
      location: content.location,
      ...quoted,
    });
  }
  if ('poll' in content) {
    const { question, options, allowMultipleAnswers = false } = content.poll;
    const names = Array.isArray(options) ? options.map((o) => String(o).trim()) : [];
    if (typeof question !== 'string' || !question.trim()) throw invalid('a poll needs a question');
    if (names.length < 2 || names.length > 12 || names.some((n) => !n)) {
      throw invalid('a poll has 2-12 options', { options: names.length });
    }
    if (new Set(names).size !== names.length) throw invalid('poll options must differ');
    const poll = { question: question.trim(), options: names, allowMultipleAnswers };
    return kindPayload(network, sender, { kind: 'poll', poll, ...quoted });
  }
  const { contacts } = content;
  if (!Array.isArray(contacts) || contacts.length === 0) throw invalid('send at least one contact');
  const cards = contacts.map((card): ContactCardInput => {
    if ('vcard' in card) {
      if (!/^BEGIN:VCARD/i.test(card.vcard.trim())) throw invalid('not a vCard');
      return { vcard: card.vcard.trim() };
    }
    const number = card.id.endsWith('@lid') ? null : toNumber(card.id);
    return { id: number ? `${number}@c.us` : card.id };
  });
  return kindPayload(network, sender, { kind: 'contact', contacts: cards, ...quoted });
}

/** Whether `account` is in the chat of `record` (wrote it, received it, or is in its group). */
export function canSee(network: SimulatorNetwork, record: SimRecord, account: SimAccount): boolean {
  if (record.author === account.id) return true;
  if (record.isGroup) return network.findGroup(record.target)?.members.has(account.id) ?? false;
  if (record.target.endsWith('@newsletter') || record.target === 'status@broadcast') return true;
  return record.target === account.id || record.target === account.lid;
}

/** `record` as `viewer` sees it: its own message, or one it received. */
function viewOf(network: SimulatorNetwork, record: SimRecord, viewer: SimAccount): MessageData {
  if (record.author === viewer.id) return { ...ownMessage(record, viewer), ack: record.ack as 1 };
  const sender = network.person(record.author);
  if (!sender) throw new WakitError('INTERNAL', `no account ${record.author}`);
  return incomingMessage(record, viewer.id, sender, viewer);
}

/** The message `messageId` quotes, as `viewer` sees it (null: none, or forgotten). */
export function quotedMessage(
  network: SimulatorNetwork,
  viewer: SimAccount,
  messageId: string,
): MessageData | null {
  const record = network.findMessage(messageId);
  if (!record || !canSee(network, record, viewer)) {
    throw new WakitError('MESSAGE_NOT_FOUND', `message ${messageId} is unknown`, {
      details: { messageId },
    });
  }
  if (!record.quotedMessageId) return null;
  const quoted = network.findMessage(record.quotedMessageId);
  return quoted && canSee(network, quoted, viewer) ? viewOf(network, quoted, viewer) : null;
}

/** The people in the chat of `record` (its group's members, or both ends of a private chat). */
function chatMembers(network: SimulatorNetwork, record: SimRecord): SimAccount[] {
  const ids = record.isGroup
    ? [...(network.findGroup(record.target)?.members ?? [])]
    : [record.author, record.target];
  return ids.map((id) => network.person(id)).filter((a): a is SimAccount => a !== undefined);
}

/** `phone.vote(...)`: checks the vote, records it, and tells everyone else in the chat. */
export function castVote(
  network: SimulatorNetwork,
  voter: SimAccount,
  pollMessageId: string,
  options: string[],
): void {
  const record = network.findMessage(pollMessageId);
  if (!record || !canSee(network, record, voter)) {
    throw new WakitError('MESSAGE_NOT_FOUND', `message ${pollMessageId} is unknown`, {
      details: { messageId: pollMessageId },
    });
  }
  const { poll } = record;
  if (!poll || !record.votes) throw invalid(`message ${pollMessageId} is not a poll`);
  if (record.target.endsWith('@newsletter') || record.target === 'status@broadcast') {
    throw invalid('only polls in groups and private chats take votes here');
  }
  if (!Array.isArray(options) || options.some((o) => typeof o !== 'string')) {
    throw invalid('options are the names of the chosen poll options');
  }
  const unknown = options.filter((o) => !poll.options.includes(o));
  if (unknown.length > 0) throw invalid('no such poll options', { unknown, options: poll.options });
  if (new Set(options).size !== options.length) throw invalid('an option is chosen twice');
  if (!poll.allowMultipleAnswers && options.length > 1) {
    throw invalid('this poll takes one answer', { chosen: options.length });
  }
  const selected = poll.options.filter((o) => options.includes(o));
  record.votes.set(voter.id, selected);
  const group = record.isGroup ? network.findGroup(record.target) : undefined;
  const voterId = voter.lidAddressed || group?.addressing === 'lid' ? voter.lid : voter.id;
  const timestamp = Math.floor(Date.now() / 1000);
  for (const member of chatMembers(network, record)) {
    if (member === voter || member.devices.size === 0) continue;
    const vote: PollVote = {
      pollMessageId: pollIdAs(network, record, member),
      chatId: record.isGroup ? record.target : voterId,
      voter: voterId,
      selectedOptions: [...selected],
      timestamp,
    };
    for (const device of member.devices) device.receiveVote(vote);
  }
}

/** The poll's serialized id as `member` knows it (its sender's id, or the receiver's view). */
function pollIdAs(network: SimulatorNetwork, record: SimRecord, member: SimAccount): string {
  if (record.author === member.id) return record.id;
  const author = network.person(record.author);
  const senderId = record.byLid && author ? author.lid : record.author;
  const from = record.isGroup ? record.chatId : senderId;
  return serializeId(false, from, record.stanza, record.isGroup ? senderId : undefined);
}
