/**
 * The adapter's chats, contacts and calls against the fake whatsapp-web.js (fake-wwebjs-chats.ts),
 * and the names it relies on checked against the installed library's sources.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { CallData } from '../../src/engines/ports/calls.js';
import { expectCode } from './engine-contract.js';
import {
  BOT,
  CONTACT,
  OPEN_GROUP,
  RESTRICTED_GROUP,
  UNKNOWN,
  populatedNetwork,
  type FakeClient,
  type FakeWhatsAppNetwork,
} from '../helpers/fake-wwebjs-client.js';
import { chatsState, offerCall } from '../helpers/fake-wwebjs-chats.js';
import { linkedWwebjsEngine } from '../helpers/linked-wwebjs-engine.js';

const logger = pino({ level: 'silent' });
const OTHER = '15550002222@c.us';
const LID = '201234567890123@lid';
const text = (t: string) => ({ kind: 'text' as const, text: t, options: {} });

describe('wwebjs engine: chats, contacts and calls (fake whatsapp-web.js)', function () {
  this.timeout(10_000);
  let dir: string;
  let network: FakeWhatsAppNetwork;
  let engine: WwebjsEngine;
  let client: FakeClient;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-chats-'));
    network = populatedNetwork({ ackDelayMs: 5 });
    network.assignLid(OTHER, LID);
    ({ engine, client } = await linkedWwebjsEngine(network, dir, logger));
  });

  afterEach(async () => {
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('getChats maps Chat objects to plain data and leaves status@broadcast out', async () => {
    network.receive(BOT, CONTACT, { text: 'one' });
    network.receive(BOT, CONTACT, { text: 'two' });
    network.receive(BOT, OTHER, { text: 'in the group' }, OPEN_GROUP);
    network.receive(BOT, '15550007777@c.us', { text: 'a status' }, 'status@broadcast');
    await engine.send(OTHER, text('hello other'));
    chatsState(network).saved.set(CONTACT, 'Alice');
    chatsState(network).chats.set(CONTACT, { archive: true, pin: 1700000000, muted: true });
    const chats = await engine.ops.chats.list();
    expect(client.calls.filter((c) => c.method === 'getChats')).to.have.length(1);
    const byId = new Map(chats.map((c) => [c.id, c]));
    // Every group the account is in is a chat, even without messages.
    expect([...byId.keys()].sort()).to.deep.equal(
      [RESTRICTED_GROUP, OPEN_GROUP, CONTACT, OTHER].sort(),
    );
    expect(byId.get(RESTRICTED_GROUP)).to.include({ timestamp: 0, unreadCount: 0 });
    const alice = byId.get(CONTACT)!;
    expect(alice).to.deep.include({
      name: 'Alice',
      isGroup: false,
      unreadCount: 2,
      archived: true,
      pinned: true,
      muted: true,
    });
    expect(alice.lastMessage).to.include({ body: 'two', fromMe: false, type: 'chat' });
    expect(alice.timestamp).to.equal(alice.lastMessage!.timestamp);
    expect(byId.get(OTHER)).to.include({ unreadCount: 0, pinned: false });
    expect(byId.get(OTHER)!.lastMessage).to.include({ body: 'hello other', fromMe: true });
    expect(byId.get(OPEN_GROUP)).to.include({ isGroup: true, unreadCount: 1 });
    expect(byId.get(OPEN_GROUP)!.lastMessage).to.include({ author: OTHER });
    // Nothing of the library leaks: plain JSON round-trips.
    expect(JSON.parse(JSON.stringify(chats))).to.deep.equal(chats);
  });

  it('getChat: a person without messages or an unregistered number is CHAT_NOT_FOUND', async () => {
    network.receive(BOT, CONTACT, { text: 'hi' });
    expect(await engine.ops.chats.get(CONTACT)).to.include({ id: CONTACT, unreadCount: 1 });
    expect(await engine.ops.chats.get(OPEN_GROUP)).to.include({ isGroup: true });
    await expectCode(engine.ops.chats.get(OTHER), 'CHAT_NOT_FOUND');
    await expectCode(engine.ops.chats.get(UNKNOWN), 'CHAT_NOT_FOUND');
    await expectCode(engine.ops.chats.get('120363999999999999@g.us'), 'CHAT_NOT_FOUND');
  });

  it('fetchMessages: newest first; before widens the window until it finds the message', async () => {
    for (let i = 1; i <= 60; i++) network.receive(BOT, CONTACT, { text: `m${i}` });
    const latest = await engine.ops.chats.fetchMessages(CONTACT, { limit: 3 });
    expect(latest.map((m) => m.body)).to.deep.equal(['m60', 'm59', 'm58']);
    expect(latest[0]).to.include({ chatId: CONTACT, fromMe: false });
    // A full window is read again without a limit: whatsapp-web.js's own cut sorts same-second
    // messages unstably and can drop the newest (chats.ts `load`; shown on the WhatsApp Web double).
    const fetches = () =>
      client.calls
        .filter((c) => c.method === 'fetchMessages')
        .map((c) => (c.args[1] as { limit?: number }).limit ?? 'all');
    expect(fetches()).to.deep.equal([3, 'all']);
    const m5 = (await engine.ops.chats.fetchMessages(CONTACT, { limit: 60 })).find(
      (m) => m.body === 'm5',
    )!;
    client.calls.length = 0;
    const older = await engine.ops.chats.fetchMessages(CONTACT, { limit: 2, before: m5.id });
    expect(older.map((m) => m.body)).to.deep.equal(['m4', 'm3']);
    // limit + 50 = 52 messages reach back to m9; doubling to 104 loads them all.
    expect(fetches()).to.deep.equal([52, 'all', 104]);
    expect(
      await engine.ops.chats.fetchMessages(CONTACT, { limit: 5, before: older[1].id }),
    ).to.have.length(2);
    await expectCode(
      engine.ops.chats.fetchMessages(CONTACT, {
        limit: 5,
        before: 'false_15550001111@c.us_3EB0NOPE',
      }),
      'MESSAGE_NOT_FOUND',
    );
    await expectCode(engine.ops.chats.fetchMessages(OTHER, { limit: 5 }), 'CHAT_NOT_FOUND');
  });

  it('getContacts: people only (no groups, itself or address-book entries not on WhatsApp)', async () => {
    const state = chatsState(network);
    state.saved.set(CONTACT, 'Alice');
    state.business.add(CONTACT);
    state.notOnWhatsApp.add('15550008888@c.us');
    network.receive(BOT, OTHER, { text: 'hi' });
    const contacts = await engine.ops.contacts.list();
    expect(contacts).to.deep.equal([
      {
        id: CONTACT,
        number: '15550001111',
        name: 'Alice',
        pushname: 'Contact 15550001111',
        isMyContact: true,
        isBlocked: false,
        isBusiness: true,
      },
      {
        id: OTHER,
        number: '15550002222',
        pushname: 'Contact 15550002222',
        isMyContact: false,
        isBlocked: false,
        isBusiness: false,
      },
    ]);
  });

  it('getContact checks the user exists first; a LID with a known phone is reported by phone', async () => {
    expect(await engine.ops.contacts.get(LID)).to.include({ id: OTHER, number: '15550002222' });
    network.assignLid('15550004444@c.us', '209876543210987@lid', true);
    expect(await engine.ops.contacts.get('209876543210987@lid')).to.deep.include({
      id: '209876543210987@lid',
      lid: '209876543210987@lid',
    });
    await expectCode(engine.ops.contacts.get(UNKNOWN), 'CHAT_NOT_FOUND');
  });

  it('getNumberId, getProfilePictureUrl (undefined → null), block and unblock', async () => {
    expect(await engine.ops.contacts.getNumberId('15550001111')).to.equal(CONTACT);
    expect(await engine.ops.contacts.getNumberId('19990009999')).to.equal(null);
    chatsState(network).pictures.set(CONTACT, 'https://pps.whatsapp.net/v/alice.jpg');
    expect(await engine.ops.contacts.getProfilePictureUrl(CONTACT)).to.equal(
      'https://pps.whatsapp.net/v/alice.jpg',
    );
    expect(await engine.ops.contacts.getProfilePictureUrl(OTHER)).to.equal(null);
    await engine.ops.contacts.setBlocked(CONTACT, true);
    expect(chatsState(network).blocked.has(CONTACT)).to.equal(true);
    expect((await engine.ops.contacts.get(CONTACT)).isBlocked).to.equal(true);
    await engine.ops.contacts.setBlocked(CONTACT, false);
    expect(chatsState(network).blocked.has(CONTACT)).to.equal(false);
    expect(client.calls.filter((c) => /block/.test(c.method)).map((c) => c.method)).to.deep.equal([
      'block',
      'unblock',
    ]);
    await expectCode(engine.ops.contacts.setBlocked(UNKNOWN, true), 'CHAT_NOT_FOUND');
  });

  it('a Call becomes one call event (own calls and repeats ignored); rejectCall rejects it', async () => {
    const calls: CallData[] = [];
    engine.on('call', (call) => calls.push(call));
    const incoming = offerCall(client, { from: CONTACT, isVideo: true });
    offerCall(client, { from: CONTACT, id: incoming.id }); // the collection set again
    offerCall(client, { from: OTHER, outgoing: true }); // a call this account placed
    expect(calls).to.deep.equal([
      { id: incoming.id, from: CONTACT, video: true, group: false, timestamp: incoming.timestamp },
    ]);
    await engine.ops.calls.reject(incoming.id);
    expect(chatsState(network).rejected).to.deep.equal([{ peerJid: CONTACT, id: incoming.id }]);
    await expectCode(engine.ops.calls.reject(incoming.id), 'CALL_NOT_FOUND');
    await expectCode(engine.ops.calls.reject('UNKNOWNCALL'), 'CALL_NOT_FOUND');
  });

  it('everything is CLIENT_NOT_READY once stopped', async () => {
    const call = offerCall(client, { from: CONTACT });
    await engine.stop();
    await expectCode(engine.ops.chats.list(), 'CLIENT_NOT_READY');
    await expectCode(engine.ops.contacts.get(CONTACT), 'CLIENT_NOT_READY');
    await expectCode(engine.ops.calls.reject(call.id), 'CLIENT_NOT_READY');
  });
});

describe('whatsapp-web.js library contract: chats, contacts and calls', () => {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('whatsapp-web.js/package.json'));
  const source = (file: string) => readFile(path.join(root, 'src', file), 'utf8');

  it('has the Client methods and the call event the adapter uses', async () => {
    const client = await source('Client.js');
    for (const method of [
      'getChats()',
      'getChatById(chatId)',
      'getContacts()',
      'getContactById(contactId)',
      'getProfilePicUrl(contactId)',
      'getNumberId(number)',
    ]) {
      expect(client, method).to.include(`    async ${method} {`);
    }
    expect(client).to.include('this.emit(Events.INCOMING_CALL, cll)');
    expect(await source('util/Constants.js')).to.include("INCOMING_CALL: 'call'");
  });

  it('Chat, Contact and Call have the fields and methods mapped', async () => {
    const chat = await source('structures/Chat.js');
    for (const line of [
      'this.name = data.formattedTitle;',
      'this.unreadCount = data.unreadCount;',
      'this.timestamp = data.t;',
      'this.archived = data.archive;',
      'this.pinned = !!data.pin;',
      'this.isMuted = data.isMuted;',
      'async fetchMessages(searchOptions) {',
      'msgs = msgs.splice(msgs.length - searchOptions.limit);',
    ]) {
      expect(chat, line).to.include(line);
    }
    const contact = await source('structures/Contact.js');
    for (const line of [
      'this.number = data.userid;',
      'this.isMyContact = data.isMyContact;',
      'this.isBlocked = data.isBlocked;',
      'this.isWAContact = data.isWAContact;',
      'async block() {',
      'async unblock() {',
      'if (this.isGroup) return false;',
    ]) {
      expect(contact, line).to.include(line);
    }
    const call = await source('structures/Call.js');
    for (const line of [
      'this.from = data.peerJid;',
      'this.timestamp = data.offerTime;',
      'this.isVideo = data.isVideo;',
      'this.isGroup = data.isGroup;',
      'this.fromMe = data.outgoing;',
      'async reject() {',
    ]) {
      expect(call, line).to.include(line);
    }
  });
});
