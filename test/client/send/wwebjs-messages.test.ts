/**
 * The whatsapp-web.js adapter for locations, contact cards, polls, votes and quotes, against the
 * fake Client (test/helpers/fake-wwebjs-messages.ts), and the names it relies on checked in the
 * installed library's sources.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import wwebjs from 'whatsapp-web.js';
import { type WwebjsEngine } from '../../../src/engines/wwebjs/index.js';
import { defaultBindings } from '../../../src/engines/wwebjs/default-bindings.js';
import type { MessageData } from '../../../src/engines/types.js';
import type { PollVote } from '../../../src/engines/ports/messages.js';
import { expectCode } from '../../engines/engine-contract.js';
import {
  BOT,
  CONTACT,
  FakeMessage,
  populatedNetwork,
  type FakeClient,
  type FakeWhatsAppNetwork,
} from '../../helpers/fake-wwebjs-client.js';
import {
  FakeContact,
  FakeLocation,
  FakePoll,
  receiveKind,
  vote,
} from '../../helpers/fake-wwebjs-messages.js';
import { linkedWwebjsEngine } from '../../helpers/linked-wwebjs-engine.js';

const logger = pino({ level: 'silent' });
const OTHER = '15550002222@c.us';
const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('whatsapp-web.js/package.json'));
const source = (file: string) => readFile(path.join(root, 'src', file), 'utf8');

describe('messages on whatsapp-web.js (fake Client)', function () {
  this.timeout(10_000);
  let dir: string;
  let network: FakeWhatsAppNetwork;
  let engine: WwebjsEngine;
  let client: FakeClient;
  const created: MessageData[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-messages-'));
    network = populatedNetwork({ ackDelayMs: 5 });
    ({ engine, client } = await linkedWwebjsEngine(network, dir, logger));
    created.length = 0;
    engine.on('message.create', (m) => void created.push(m));
  });
  afterEach(async () => {
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const lastSend = () => client.calls.filter((c) => c.method === 'sendMessage').at(-1)!.args;
  const own = (id: string) => created.find((m) => m.id === id)!;

  it('a location is a Location (name, address) and comes back with its data', async () => {
    const { id } = await engine.send(CONTACT, {
      kind: 'location',
      location: { latitude: 52.52, longitude: 13.405, name: 'Tor', address: 'Pariser Platz' },
      quotedMessageId: 'false_15550001111@c.us_3EB0X',
    });
    const [chatId, content, options] = lastSend();
    expect(chatId).to.equal(CONTACT);
    expect(content).to.be.instanceOf(FakeLocation);
    expect(content).to.deep.include({ latitude: 52.52, longitude: 13.405, name: 'Tor' });
    expect(options).to.deep.equal({ quotedMessageId: 'false_15550001111@c.us_3EB0X' });
    expect(own(id).type).to.equal('location');
    expect(own(id).location).to.deep.equal({
      latitude: 52.52,
      longitude: 13.405,
      name: 'Tor',
      address: 'Pariser Platz',
    });
    expect(own(id).body).to.equal('Tor\nPariser Platz');
  });

  it('a poll is a Poll (trimmed, allowMultipleAnswers) and comes back as poll_creation', async () => {
    const { id } = await engine.send(CONTACT, {
      kind: 'poll',
      poll: { question: 'Lunch?', options: ['Pizza', 'Sushi'], allowMultipleAnswers: true },
    });
    const [, content, options] = lastSend();
    expect(content).to.be.instanceOf(FakePoll);
    expect((content as FakePoll).pollOptions).to.deep.equal([
      { name: 'Pizza', localId: 0 },
      { name: 'Sushi', localId: 1 },
    ]);
    expect(options).to.deep.equal({});
    expect(own(id).type).to.equal('poll_creation');
    expect(own(id).body).to.equal('Lunch?');
    expect(own(id).poll).to.deep.equal({
      question: 'Lunch?',
      options: ['Pizza', 'Sushi'],
      allowMultipleAnswers: true,
    });
  });

  it('contacts by id are Contacts from getContactById: one → vcard, several → multi_vcard', async () => {
    const one = await engine.send(CONTACT, { kind: 'contact', contacts: [{ id: OTHER }] });
    expect(lastSend()[1]).to.be.instanceOf(FakeContact);
    expect(own(one.id).type).to.equal('vcard');
    expect(own(one.id).contacts).to.deep.equal([
      { name: 'Contact 15550002222', id: OTHER, phones: ['+15550002222'] },
    ]);
    const two = await engine.send(CONTACT, {
      kind: 'contact',
      contacts: [{ id: OTHER }, { id: CONTACT }],
    });
    const content = lastSend()[1] as FakeContact[];
    expect(content.map((c) => c.id._serialized)).to.deep.equal([OTHER, CONTACT]);
    expect(own(two.id).type).to.equal('multi_vcard');
    expect(own(two.id).vcards).to.have.length(2);
    expect(own(two.id).body).to.equal('');
  });

  it('one vCard is its text with parseVCards; several cards with a vCard go as multi_vcard (extra)', async () => {
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Ann Lee\nTEL;type=CELL:+1 555 0100\nEND:VCARD';
    const one = await engine.send(CONTACT, { kind: 'contact', contacts: [{ vcard }] });
    expect(lastSend().slice(1)).to.deep.equal([vcard, { parseVCards: true }]);
    expect(own(one.id).type).to.equal('vcard');
    expect(own(one.id).contacts).to.deep.equal([{ name: 'Ann Lee', phones: ['+1 555 0100'] }]);

    const mixed = await engine.send(CONTACT, {
      kind: 'contact',
      contacts: [{ vcard }, { id: OTHER }],
    });
    const [, content, options] = lastSend();
    expect(content).to.equal('');
    expect((options as { extra?: object }).extra).to.deep.include({
      type: 'multi_vcard',
      body: null,
    });
    expect(own(mixed.id).type).to.equal('multi_vcard');
    expect(own(mixed.id).contacts?.map((c) => c.name)).to.deep.equal([
      'Ann Lee',
      'Contact 15550002222',
    ]);
    expect(own(mixed.id).contacts?.[1]?.id).to.equal(OTHER);
  });

  it('media replies pass quotedMessageId', async () => {
    const incoming = network.receive(BOT, CONTACT, { text: 'a picture please' });
    await engine.send(CONTACT, {
      kind: 'image',
      media: { data: Buffer.from('png'), mimetype: 'image/png' },
      caption: 'here',
      quotedMessageId: incoming.id._serialized,
    });
    expect(lastSend()[2]).to.deep.equal({
      caption: 'here',
      quotedMessageId: incoming.id._serialized,
    });
  });

  it('received location (thumbnail body), cards and poll carry their data', () => {
    const received: MessageData[] = [];
    engine.on('message', (m) => void received.push(m));
    receiveKind(
      network,
      BOT,
      CONTACT,
      {
        type: 'location',
        body: '/9j/4AAQSkZJRgABAQ', // WhatsApp Web's JPEG thumbnail
        lat: -33.85,
        lng: 151.2,
        loc: 'Opera House\nBennelong Point',
        clientUrl: 'https://example.org/opera',
      },
      FakeMessage,
    );
    receiveKind(
      network,
      BOT,
      CONTACT,
      {
        type: 'multi_vcard',
        body: undefined,
        vcardList: [
          {
            displayName: 'A',
            vcard: 'BEGIN:VCARD\nFN:A\nTEL;waid=15550007777:+1 555 000 7777\nEND:VCARD',
          },
          { displayName: 'B', vcard: 'BEGIN:VCARD\nN:Bee;Bo;;;\nEND:VCARD' },
        ],
      },
      FakeMessage,
    );
    receiveKind(
      network,
      BOT,
      CONTACT,
      {
        type: 'poll_creation',
        pollName: 'Tea?',
        pollOptions: [
          { name: 'Yes', localId: 0 },
          { name: 'No', localId: 1 },
        ],
        pollSelectableOptionsCount: 1,
      },
      FakeMessage,
    );
    const [place, cards, poll] = received;
    expect(place?.location).to.deep.equal({
      latitude: -33.85,
      longitude: 151.2,
      name: 'Opera House',
      address: 'Bennelong Point',
      url: 'https://example.org/opera',
    });
    expect(place?.body).to.equal('Opera House\nBennelong Point');
    expect(cards?.contacts).to.deep.equal([
      { name: 'A', id: '15550007777@c.us', phones: ['+1 555 000 7777'] },
      { name: 'Bo Bee', phones: [] },
    ]);
    expect(poll?.body).to.equal('Tea?');
    expect(poll?.poll).to.deep.equal({
      question: 'Tea?',
      options: ['Yes', 'No'],
      allowMultipleAnswers: false,
    });
  });

  it('mentions: a received message carries mentionedIds (wids or strings), so does an own text', async () => {
    const received: MessageData[] = [];
    engine.on('message', (m) => void received.push(m));
    receiveKind(
      network,
      BOT,
      CONTACT,
      { type: 'chat', body: '@15550000001 look', mentionedJidList: [BOT] },
      FakeMessage,
    );
    receiveKind(network, BOT, CONTACT, { type: 'chat', body: 'nobody' }, FakeMessage);
    expect(received.map((m) => m.mentionedIds)).to.deep.equal([[BOT], []]);
    const { id } = await engine.send(CONTACT, {
      kind: 'text',
      text: '@15550002222 hi',
      options: { mentions: [OTHER] },
    });
    expect(own(id).mentionedIds).to.deep.equal([OTHER]);
  });

  it('vote_update becomes poll.vote (voter, poll id, chat, option names)', async () => {
    const { id } = await engine.send(CONTACT, {
      kind: 'poll',
      poll: { question: 'Q', options: ['a', 'b', 'c'], allowMultipleAnswers: true },
    });
    const votes: PollVote[] = [];
    engine.on('poll.vote', (v) => void votes.push(v));
    vote(network, BOT, CONTACT, id, [2, 0], FakeMessage);
    vote(network, BOT, CONTACT, id, [], FakeMessage);
    expect(votes).to.have.length(2);
    expect(votes[0]).to.deep.include({
      pollMessageId: id,
      chatId: CONTACT,
      voter: CONTACT,
      selectedOptions: ['c', 'a'],
    });
    expect(votes[0]?.timestamp).to.be.closeTo(Date.now() / 1000, 5);
    expect(votes[1]?.selectedOptions).to.deep.equal([]);
  });

  it('getQuotedMessage: the quoted message as data, null without a quote, MESSAGE_NOT_FOUND when unknown', async () => {
    const { id } = await engine.send(CONTACT, { kind: 'text', text: 'question?', options: {} });
    const reply = network.receive(BOT, CONTACT, { text: 'answer' });
    expect(await engine.ops.messages.getQuoted(reply.id._serialized)).to.equal(null);
    const quoting = receiveKind(
      network,
      BOT,
      CONTACT,
      {
        type: 'chat',
        body: 'about that',
        quotedMsg: { type: 'chat', body: 'question?' },
        quotedStanzaID: id.split('_')[2],
      },
      FakeMessage,
    );
    const quoted = await engine.ops.messages.getQuoted(quoting.id._serialized);
    expect(quoted).to.deep.include({ id, body: 'question?', fromMe: true });
    await expectCode(
      engine.ops.messages.getQuoted('false_15550001111@c.us_NOPE'),
      'MESSAGE_NOT_FOUND',
    );
    const gone = receiveKind(
      network,
      BOT,
      CONTACT,
      {
        type: 'chat',
        body: 'old',
        quotedMsg: { type: 'chat', body: 'forgotten' },
        quotedStanzaID: 'NOT_THERE',
      },
      FakeMessage,
    );
    expect(await engine.ops.messages.getQuoted(gone.id._serialized)).to.equal(null);
  });
});

describe('messages: whatsapp-web.js 1.34 sources (the names the adapter relies on)', () => {
  it('sendMessage takes Location, Poll, Contact, Contact[], vCard text and extra', async () => {
    const client = await source('Client.js');
    for (const text of [
      'content instanceof Location',
      'internalOptions.location = content',
      'internalOptions.poll = content',
      'internalOptions.contactCard = content.id._serialized',
      'content[0] instanceof Contact',
      'parseVCards: options.parseVCards !== false',
      'extraOptions: options.extra',
      'this.emit(Events.VOTE_UPDATE, new PollVote(this, vote))',
      'const sender = vote.author ?? vote.from',
    ]) {
      expect(client, text).to.contain(text);
    }
    const utils = await source('util/Injected/Utils.js');
    for (const text of [
      "type: 'multi_vcard'",
      "content.startsWith('BEGIN:VCARD')",
      'let { latitude, longitude, description, url } = options.location',
      'pollSelectableOptionsCount: allowMultipleAnswers ? 0 : 1',
      '...extraOptions,',
    ]) {
      expect(utils, text).to.contain(text);
    }
    expect(await source('util/Constants.js')).to.contain("VOTE_UPDATE: 'vote_update'");
  });

  it('Message and PollVote expose location, vCards, poll fields, getQuotedMessage and the voter', async () => {
    const message = await source('structures/Message.js');
    for (const text of [
      'this.location = (() => {',
      'return new Location(data.lat, data.lng, description)',
      'data.vcardList.map((c) => c.vcard)',
      'this.pollName = data.pollName',
      'this.pollOptions = data.pollOptions',
      '!data.pollSelectableOptionsCount',
      'async getQuotedMessage()',
      'if (!this.hasQuotedMsg) return undefined',
    ]) {
      expect(message, text).to.contain(text);
    }
    const pollVote = await source('structures/PollVote.js');
    expect(pollVote).to.contain('this.voter = data.sender');
    expect(pollVote).to.contain('this.interractedAtTs = data.senderTimestampMs');
    expect(pollVote).to.contain(
      'this.parentMessage = new Message(this.client, data.parentMessage)',
    );
  });

  it('the real bindings make the library’s own Location and Poll (what sendMessage checks)', () => {
    const place = defaultBindings.createLocation(1.5, 2.5, { name: 'N', address: 'A' });
    expect(place).to.be.instanceOf(wwebjs.Location);
    expect(place).to.deep.include({ latitude: 1.5, longitude: 2.5, description: 'N\nA' });
    const poll = defaultBindings.createPoll(' Q ', ['a ', 'b'], { allowMultipleAnswers: false });
    expect(poll).to.be.instanceOf(wwebjs.Poll);
    expect(poll).to.deep.include({ pollName: 'Q' });
    expect((poll as wwebjs.Poll).pollOptions).to.deep.equal([
      { name: 'a', localId: 0 },
      { name: 'b', localId: 1 },
    ]);
    expect((poll as wwebjs.Poll).options.allowMultipleAnswers).to.equal(false);
  });
});
