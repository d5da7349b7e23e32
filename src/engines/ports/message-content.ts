/**
 * The content of the message kinds beyond text and media (locations, contact cards, polls), as
 * sent and as received: the vocabulary `MessageData` and `EngineContent` (../types.ts) share with
 * the `messages` area (messages.ts re-exports it).
 */
/** The kinds of content this area adds to a send. */
export const MESSAGE_KINDS = ['location', 'contact', 'poll'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** A place, sent or received (WhatsApp shows `name` and `address` under the map). */
export interface LocationData {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
  /** A link shown with the location, when the sender gave one (received only). */
  url?: string;
}

/** A poll: 2-12 options; `allowMultipleAnswers` false means one choice per voter. */
export interface PollData {
  question: string;
  options: string[];
  allowMultipleAnswers: boolean;
}

/** One contact card to send: a WhatsApp user by chat id, or a vCard (3.0 text). */
export type ContactCardInput = { id: string } | { vcard: string };

/** A received contact card, parsed from its vCard (`FN`, and `TEL;waid=` when it has one). */
export interface ContactCard {
  name: string;
  /** `<digits>@c.us` when the card names a WhatsApp number (`waid`). */
  id?: string;
  /** Phone numbers as written on the card. */
  phones: string[];
}

/** Content of this area, as queued, journaled and handed to an engine (no bytes to resolve). */
export type MessageKindContent =
  | { kind: 'location'; location: LocationData; quotedMessageId?: string }
  | { kind: 'contact'; contacts: ContactCardInput[]; quotedMessageId?: string }
  | { kind: 'poll'; poll: PollData; quotedMessageId?: string };

export function isMessageKindContent(content: { kind: string }): content is MessageKindContent {
  return (MESSAGE_KINDS as readonly string[]).includes(content.kind);
}

/** What a received message of these kinds carries besides `MessageData`'s plain fields. */
export interface MessageKindData {
  /** `type: 'location'`. */
  location?: LocationData;
  /** `type: 'vcard'` (one) or `'multi_vcard'`: the vCards as sent. */
  vcards?: string[];
  /** The same cards, parsed. */
  contacts?: ContactCard[];
  /** `type: 'poll_creation'`. */
  poll?: PollData;
}
