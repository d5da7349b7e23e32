/**
 * Locations, contact cards and polls on whatsapp-web.js 1.34: what `sendMessage` takes for each
 * (Client.js:1383-1500 and Injected/Utils.js:220-340), what a received message carries
 * (structures/Message.js:173-195, 329-335), `vote_update` (structures/PollVote.js) and
 * `Message#getQuotedMessage` (structures/Message.js:431).
 */
import { WakitError } from '../../errors/index.js';
import type { MessageKindContent, PollVote } from '../ports/messages.js';
import type { MessageData } from '../types.js';
import { parseVCard, userVCard } from '../vcard.js';
import { mapSendError } from './map-errors.js';
import { chatIdOf, toMessageData } from './map-message.js';
import { serializedId, widText, withSerializedId } from './serialized-id.js';
import type {
  ClientLike,
  ContactLike,
  MessageLike,
  PollVoteLike,
  SendOptionsLike,
  WwebjsBindings,
} from './types.js';

type Payload = string | object;

/**
 * `sendMessage` arguments for a location (`Location`), a poll (`Poll`) or contact cards:
 * - users by id are `Contact`s from `getContactById` (one → `vcard`, several → `multi_vcard`,
 *   WhatsApp Web makes the cards: `contactCard` / `contactCardList`);
 * - one vCard is its text with `parseVCards` (WhatsApp Web parses it into a card);
 * - several cards with a vCard among them: whatsapp-web.js has no argument for that, so the
 *   `multi_vcard` model fields are passed through `extra` (spread into the message model last,
 *   Injected/Utils.js:453-480), users' cards made as WhatsApp makes them (`waid`).
 */
export async function kindSendArguments(
  client: ClientLike,
  bindings: WwebjsBindings,
  content: MessageKindContent,
  chatId: string,
): Promise<[Payload, SendOptionsLike]> {
  const options: SendOptionsLike = {};
  if (content.quotedMessageId) options.quotedMessageId = content.quotedMessageId;
  if (content.kind === 'location') {
    const { latitude, longitude, name, address } = content.location;
    const place = bindings.createLocation(latitude, longitude, {
      ...(name !== undefined ? { name } : {}),
      ...(address !== undefined ? { address } : {}),
    });
    return [place, options];
  }
  if (content.kind === 'poll') {
    const { question, options: names, allowMultipleAnswers } = content.poll;
    return [bindings.createPoll(question, names, { allowMultipleAnswers }), options];
  }
  const { contacts } = content;
  if (contacts.length === 1 && 'vcard' in contacts[0]) {
    return [contacts[0].vcard, { ...options, parseVCards: true }];
  }
  const found = await Promise.all(
    contacts.map(async (card) => ('id' in card ? contact(client, card.id, chatId) : card.vcard)),
  );
  if (found.every((c): c is ContactLike => typeof c !== 'string')) {
    return [found.length === 1 ? found[0] : found, options];
  }
  const vcards = found.map((c) => (typeof c === 'string' ? c : cardOf(c)));
  const vcardList = vcards.map((vcard) => ({ displayName: parseVCard(vcard).name, vcard }));
  return ['', { ...options, extra: { type: 'multi_vcard', vcardList, body: null } }];
}

async function contact(client: ClientLike, id: string, chatId: string): Promise<ContactLike> {
  try {
    return await client.getContactById(id);
  } catch (error) {
    throw mapSendError(error, chatId);
  }
}

function cardOf(contact: ContactLike): string {
  const digits = contact.number ?? contact.id?._serialized.match(/^(\d+)@c\.us$/)?.[1];
  return userVCard(
    contact.name || contact.pushname || (digits ? `+${digits}` : ''),
    digits ?? undefined,
  );
}

/**
 * `vote_update` as `poll.vote`; undefined when the poll message is not known at all. The poll's
 * key and the parent message's id cross by JSON (Client.js's `onPollVoteEvent`): on builds with
 * the renamed key they have no `_serialized` and are rebuilt from their parts (serialized-id.ts).
 */
export function toPollVote(vote: PollVoteLike): PollVote | undefined {
  const parent = vote.parentMessage?.id ? withSerializedId(vote.parentMessage) : undefined;
  const parentId = serializedId(parent?.id);
  const pollMessageId = parentId ?? serializedId(vote.parentMsgKey);
  const voter = widText(vote.voter);
  if (!pollMessageId || !voter) return undefined;
  const chatId =
    parent && parentId
      ? chatIdOf(parent)
      : (widText(vote.parentMsgKey?.remote) ?? pollMessageId.split('_')[1] ?? '');
  const names = (vote.selectedOptions ?? []).map(
    (o) => o.name ?? parent?.pollOptions?.find((p) => p.localId === o.localId)?.name,
  );
  const ms = typeof vote.interractedAtTs === 'number' ? vote.interractedAtTs : Date.now();
  return {
    pollMessageId,
    chatId,
    voter,
    selectedOptions: names.filter((n): n is string => typeof n === 'string'),
    timestamp: Math.floor(ms / 1000),
  };
}

/** The quoted message of `message` (null when none, or WhatsApp Web no longer has it). */
export async function quotedOf(
  message: MessageLike,
  meId: string | undefined,
): Promise<{ data: MessageData; message: MessageLike } | null> {
  if (!message.hasQuotedMsg || !message.getQuotedMessage) return null;
  let quoted: MessageLike | undefined;
  try {
    quoted = await message.getQuotedMessage();
  } catch (error) {
    throw new WakitError('ENGINE_ERROR', 'whatsapp-web.js could not get the quoted message', {
      cause: error,
      details: { messageId: message.id._serialized },
    });
  }
  // Message.js:445: `new Message(client, undefined)` has no id when the quote is gone.
  if (!quoted || !serializedId(withSerializedId(quoted).id)) return null;
  return { data: toMessageData(quoted, meId), message: quoted };
}
