/**
 * Validated input of a location, contact or poll send → the content the queue carries: contact
 * ids normalised (`+1 555…` → `1555…@c.us`), vCards and poll texts trimmed (as whatsapp-web.js's
 * `Poll` trims them), absent optional fields left out so a journaled send reads back the same.
 */
import type {
  ContactCardInput,
  LocationData,
  MessageKind,
  MessageKindContent,
  PollData,
} from '../../engines/ports/messages.js';
import { PERSON_KINDS, normalizeChatId } from '../chat-id.js';

/** The parsed fields of one kind, as the SDK (`{ location }`) or `ctx.send`/HTTP (flat) give them. */
export interface KindFields {
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contacts?: ReadonlyArray<{ id: string } | { vcard: string }>;
  poll?: { question: string; options: string[]; allowMultipleAnswers: boolean };
}

export function kindContent(
  kind: MessageKind,
  fields: KindFields,
  quotedMessageId?: string,
): MessageKindContent {
  const quoted = quotedMessageId !== undefined ? { quotedMessageId } : {};
  if (kind === 'location') return { kind, location: location(fields.location!), ...quoted };
  if (kind === 'poll') return { kind, poll: poll(fields.poll!), ...quoted };
  return { kind, contacts: fields.contacts!.map(card), ...quoted };
}

/** The typed content of `ctx.send` / HTTP (`{ type: 'poll', question, ... }`) as `KindFields`. */
export function typedKindFields(
  content: { type: MessageKind } & Record<string, unknown>,
): KindFields {
  const { type, ...rest } = content;
  if (type === 'location') return { location: rest as NonNullable<KindFields['location']> };
  if (type === 'poll') return { poll: rest as NonNullable<KindFields['poll']> };
  return { contacts: rest.contacts as KindFields['contacts'] };
}

function location(input: NonNullable<KindFields['location']>): LocationData {
  const place: LocationData = { latitude: input.latitude, longitude: input.longitude };
  if (input.name !== undefined) place.name = input.name.trim();
  if (input.address !== undefined) place.address = input.address.trim();
  return place;
}

function poll(input: NonNullable<KindFields['poll']>): PollData {
  return {
    question: input.question.trim(),
    options: input.options.map((o) => o.trim()),
    allowMultipleAnswers: input.allowMultipleAnswers,
  };
}

function card(input: { id: string } | { vcard: string }, index: number): ContactCardInput {
  if ('id' in input) {
    return { id: normalizeChatId(input.id, `contacts.${index}.id`, { allow: PERSON_KINDS }) };
  }
  return { vcard: input.vcard.trim() };
}
