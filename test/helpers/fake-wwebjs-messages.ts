/* eslint-disable @typescript-eslint/require-await -- async like the real methods */
/**
 * The fake whatsapp-web.js 1.34 for locations, contact cards, polls, votes and quotes, written
 * from node_modules/whatsapp-web.js/src: `Location` (structures/Location.js), `Poll`
 * (structures/Poll.js), `Contact` (structures/Contact.js), what `sendMessage` makes of them
 * (Client.js:1476-1503 and Injected/Utils.js:220-340, 453-480), what `Message#_patch` reads back
 * (structures/Message.js:57, 173-195, 329-335), `Message#getQuotedMessage` (431-449) and
 * `vote_update` with a `PollVote` (structures/PollVote.js, Client.js:1008-1020 and 1196-1233).
 */
import { FakeContact } from './fake-wwebjs-chats.js';

export { FakeContact };
import type { SendOptionsLike } from '../../src/engines/wwebjs/types.js';
import type {
  FakeClient,
  FakeMessage,
  FakeWhatsAppNetwork,
  RawMessage,
} from './fake-wwebjs-client.js';

/** The raw model fields of these kinds (WhatsApp Web's names). */
export type KindRaw = {
  lat?: number;
  lng?: number;
  loc?: string;
  clientUrl?: string;
  vcardFormattedName?: string;
  vcardList?: Array<{ displayName: string; vcard: string }>;
  pollName?: string;
  pollOptions?: Array<{ name: string; localId: number }>;
  pollSelectableOptionsCount?: number;
};

/** structures/Location.js. */
export class FakeLocation {
  name?: string;
  address?: string;
  url?: string;
  description: string;
  constructor(
    public latitude: number,
    public longitude: number,
    options: { name?: string; address?: string; url?: string } = {},
  ) {
    this.name = options.name;
    this.address = options.address;
    this.url = options.url;
    this.description =
      this.name && this.address ? `${this.name}\n${this.address}` : this.name || this.address || '';
  }
}

/** structures/Poll.js. */
export class FakePoll {
  pollName: string;
  pollOptions: Array<{ name: string; localId: number }>;
  options: { allowMultipleAnswers: boolean; messageSecret?: number[] };
  constructor(
    pollName: string,
    pollOptions: string[],
    options: { allowMultipleAnswers?: boolean } = {},
  ) {
    this.pollName = pollName.trim();
    this.pollOptions = pollOptions.map((name, localId) => ({ name: name.trim(), localId }));
    this.options = { allowMultipleAnswers: options.allowMultipleAnswers === true };
  }
}

/** structures/Contact.js (the fields a card is made from). */
/** `WAWebFrontendVcardUtils.vcardFromContactModel` (the card WhatsApp Web makes for a contact). */
export function vcardFromContact(contact: FakeContact): { displayName: string; vcard: string } {
  const displayName = contact.name ?? contact.pushname;
  const vcard = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${displayName}`,
    `TEL;type=CELL;type=VOICE;waid=${contact.number}:+${contact.number}`,
    'END:VCARD',
  ].join('\n');
  return { displayName, vcard };
}

/**
 * What `sendMessage` puts in the message model for these kinds (Injected/Utils.js): returns false
 * for text and media (the fake's own path handles them). `extra` is spread in last.
 */
export function applyKind(
  raw: RawMessage & KindRaw,
  content: unknown,
  options: SendOptionsLike,
): boolean {
  let handled = true;
  if (content instanceof FakeLocation) {
    Object.assign(raw, {
      type: 'location',
      body: '',
      loc: content.description,
      lat: content.latitude,
      lng: content.longitude,
    });
  } else if (content instanceof FakePoll) {
    Object.assign(raw, {
      type: 'poll_creation',
      body: '',
      pollName: content.pollName,
      pollOptions: content.pollOptions,
      pollSelectableOptionsCount: content.options.allowMultipleAnswers ? 0 : 1,
    });
  } else if (content instanceof FakeContact) {
    const { displayName, vcard } = vcardFromContact(content);
    Object.assign(raw, { type: 'vcard', body: vcard, vcardFormattedName: displayName });
  } else if (Array.isArray(content) && content[0] instanceof FakeContact) {
    const vcardList = (content as FakeContact[]).map(vcardFromContact);
    Object.assign(raw, { type: 'multi_vcard', vcardList, body: null });
  } else if (
    options.parseVCards !== false &&
    typeof content === 'string' &&
    content.startsWith('BEGIN:VCARD')
  ) {
    const name = /^FN:(.*)$/m.exec(content)?.[1] ?? '';
    Object.assign(raw, { type: 'vcard', body: content, vcardFormattedName: name });
  } else {
    handled = false;
  }
  if (options.extra) {
    Object.assign(raw, options.extra);
    handled = true;
  }
  return handled;
}

/** The fields `Message#_patch` sets for these kinds (structures/Message.js). */
export function patchKinds(
  message: FakeMessage & Record<string, unknown>,
  raw: RawMessage & KindRaw,
): void {
  // Message.js:57: `data.body || data.pollName || ...` for messages without media.
  if (!message.hasMedia) message.body = raw.body || raw.pollName || '';
  message.location =
    raw.type === 'location'
      ? new FakeLocation(
          raw.lat!,
          raw.lng!,
          raw.loc
            ? { name: raw.loc.split('\n')[0], address: raw.loc.split('\n')[1], url: raw.clientUrl }
            : undefined,
        )
      : undefined;
  message.vCards =
    raw.type === 'multi_vcard'
      ? raw.vcardList!.map((c) => c.vcard)
      : raw.type === 'vcard'
        ? [raw.body]
        : [];
  if (raw.type === 'poll_creation') {
    message.pollName = raw.pollName;
    message.pollOptions = raw.pollOptions;
    message.allowMultipleAnswers = Boolean(!raw.pollSelectableOptionsCount);
  }
}

/** Message.js:431: the quoted message; a Message without data when WhatsApp Web lost it. */
export async function quotedMessageOf(message: FakeMessage): Promise<FakeMessage | undefined> {
  if (!message.hasQuotedMsg) return undefined;
  message.client.requirePage();
  const stanza = message._data.quotedStanzaID;
  const raw = [...message.client.network.messages.values()].find((m) => m.id.id === stanza);
  const Ctor = message.constructor as new (client: FakeClient, data: RawMessage) => FakeMessage;
  if (raw) return new Ctor(message.client, raw);
  return Object.create(Ctor.prototype as object) as FakeMessage; // `new Message(client, undefined)`
}

/** structures/PollVote.js#_patch over what `onPollVoteEvent` passes (Client.js:1196-1233). */
export class FakePollVote {
  voter: { _serialized: string };
  selectedOptions: Array<{ name: string | undefined; localId: number }>;
  interractedAtTs: number;
  parentMessage: FakeMessage;
  parentMsgKey: RawMessage['id'];
  constructor(
    client: FakeClient,
    data: {
      sender: { _serialized: string };
      selectedOptionLocalIds: number[];
      senderTimestampMs: number;
      parentMessage: RawMessage & KindRaw;
      parentMsgKey: RawMessage['id'];
    },
    Message: new (client: FakeClient, data: RawMessage) => FakeMessage,
  ) {
    this.voter = data.sender;
    this.selectedOptions = data.selectedOptionLocalIds.map((localId) => ({
      name: data.parentMessage.pollOptions?.find((x) => x.localId === localId)?.name,
      localId,
    }));
    this.interractedAtTs = data.senderTimestampMs;
    this.parentMessage = new Message(client, data.parentMessage);
    this.parentMsgKey = data.parentMsgKey;
  }
}

function readyClient(network: FakeWhatsAppNetwork, account: string): FakeClient {
  const client = [...network.clients].find((c) => c.account === account && c.isReady);
  if (!client) throw new Error(`account ${account} is not online`);
  return client;
}

/** `from` votes on the poll `pollId` (known to the linked account `to`): `vote_update` there. */
export function vote(
  network: FakeWhatsAppNetwork,
  to: string,
  from: string,
  pollId: string,
  localIds: number[],
  Message: new (client: FakeClient, data: RawMessage) => FakeMessage,
): void {
  const client = readyClient(network, to);
  const parent = network.messages.get(pollId);
  if (!parent) throw new Error(`no poll ${pollId}`);
  client.emit(
    'vote_update',
    new FakePollVote(
      client,
      {
        sender: { _serialized: from },
        selectedOptionLocalIds: localIds,
        senderTimestampMs: Date.now(),
        parentMessage: parent,
        parentMsgKey: parent.id,
      },
      Message,
    ),
  );
}

/** `from` sends the linked account `to` a message of these kinds (raw model fields given). */
export function receiveKind(
  network: FakeWhatsAppNetwork,
  to: string,
  from: string,
  fields: Partial<RawMessage & KindRaw> & { type: string },
  Message: new (client: FakeClient, data: RawMessage) => FakeMessage,
): RawMessage {
  const client = readyClient(network, to);
  const id = `3EB0K${Math.random().toString(16).slice(2, 14).toUpperCase()}`;
  const raw: RawMessage & KindRaw = {
    id: { fromMe: false, remote: from, id, _serialized: `false_${from}_${id}` },
    t: Math.floor(Date.now() / 1000),
    from,
    to,
    ack: 1,
    notifyName: `Contact ${from.split('@')[0]}`,
    broadcast: false,
    ...fields,
  };
  network.messages.set(raw.id._serialized, raw);
  client.emit('message_create', new Message(client, raw));
  client.emit('message', new Message(client, raw));
  return raw;
}
