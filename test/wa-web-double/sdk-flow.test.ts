/**
 * The specification's SDK flow on the real whatsapp-web.js 1.34.7 + WhatsApp Web double: qr →
 * authenticated → ready, sends with message.create fromMe and acks to read, received messages
 * with reply / forward / downloadMedia, LID senders (1:1 and as group authors) completed through
 * the library's own lid↔phone lookup, and session expiry.
 */
import { expect } from 'chai';
import type { BotClient } from '../../src/client/bot-client.js';
import type { ClientState, Message } from '../../src/index.js';
import type { AckUpdate, DisconnectReason } from '../../src/entries/types.js';
import { DoubleHarness } from './harness.js';
import { ALICE, BOB, BOT, TEAM_GROUP } from './world.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Resolves with the first `event` payload that matches. */
function next<T>(client: BotClient, event: string, match: (value: T) => boolean = () => true) {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 15 s`)), 15_000);
    const on = client.on.bind(client) as (e: string, l: (v: T) => void) => void;
    on(event, (value: T) => {
      if (!match(value)) return;
      clearTimeout(timer);
      resolve(value);
    });
  });
}

type Sent = Array<{ id: string; to: string; body: string; quotedStanzaID?: string; ack: number }>;

describe('the spec SDK flow on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(60_000);
  let h: DoubleHarness;
  let client: BotClient;

  beforeEach(async () => {
    h = await DoubleHarness.create();
    client = h.sdk().createClient({ name: 'sales' });
  });
  afterEach(async () => {
    await h.cleanup();
  });

  const link = async (): Promise<{ events: string[]; states: ClientState[] }> => {
    const events: string[] = [];
    const states: ClientState[] = [];
    client.on('state', ({ to }) => states.push(to));
    client.on('qr', (qr) => {
      events.push('qr');
      void h.link(qr);
    });
    client.on('authenticated', () => events.push('authenticated'));
    client.on('ready', () => events.push('ready'));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
    return { events, states };
  };

  it('initialize → qr → scan → authenticated → ready, with the states of the table', async () => {
    const { events, states } = await link();
    expect(events).to.deep.equal(['qr', 'authenticated', 'ready']);
    expect(states).to.deep.equal(['STARTING', 'SCAN_QR', 'AUTHENTICATED', 'READY']);
    expect(client.info()).to.deep.include({
      name: 'sales',
      state: 'READY',
      engine: 'whatsapp-web.js',
    });
    expect(client.info().me?.id).to.equal(BOT.pn);
  });

  it('sends text and an image; message.create fromMe; acks progress to read', async () => {
    await link();
    const created = next<Message>(
      client,
      'message.create',
      (m) => m.fromMe && m.body === 'hi Alice',
    );
    const read = next<AckUpdate>(client, 'message.ack', (u) => u.ack === 3);
    const text = await client.sendTextMessage({ to: ALICE.pn, text: 'hi Alice' });
    expect((await created).id).to.equal(text.id);
    const image = await client.sendImageMessage({
      to: ALICE.pn,
      image: { buffer: new Uint8Array(PNG), mimetype: 'image/png', caption: 'a dot' },
    });
    expect(await h.phone('sentMedia', image.id)).to.equal(PNG.toString('base64'));
    await h.phone('read', ALICE.pn);
    expect((await read).messageId).to.be.oneOf([text.id, image.id]);
  });

  it('receives messages with the spec fields, replies, forwards and downloads media', async () => {
    await link();
    const incoming = next<Message>(client, 'message', (m) => m.hasMedia);
    await h.phone('receive', {
      from: ALICE.pn,
      media: PNG.toString('base64'),
      mimetype: 'image/png',
      filename: 'dot.png',
      caption: 'look',
    });
    const message = await incoming;
    expect(message).to.include({ from: ALICE.pn, chatId: ALICE.pn, body: 'look', fromMe: false });
    expect(message.sender).to.include({ id: ALICE.pn, phone: ALICE.pn, lid: ALICE.lid });
    const media = await message.downloadMedia();
    expect(media.data).to.equal(PNG.toString('base64'));
    await message.reply('nice');
    await message.forward(TEAM_GROUP.id);
    const sent = await h.phone<Sent>('sent');
    expect(sent.find((m) => m.body === 'nice')?.quotedStanzaID).to.equal(message.id.split('_')[2]);
    expect(sent.some((m) => m.to === TEAM_GROUP.id)).to.equal(true);
  });

  it('a LID sender in a 1:1 chat and as a group author: sender { id, lid, phone } through the library, replies reach them', async () => {
    await link();
    const direct = next<Message>(client, 'message', (m) => m.body === 'from my lid');
    await h.phone('receive', { from: BOB.lid, body: 'from my lid' });
    const first = await direct;
    expect(first.chatId).to.equal(BOB.lid);
    expect(first.sender).to.include({ id: BOB.lid, lid: BOB.lid, phone: BOB.pn });
    await first.reply('hi Bob');

    const inGroup = next<Message>(client, 'message', (m) => m.body === 'group hello');
    await h.phone('receive', { from: TEAM_GROUP.id, author: BOB.lid, body: 'group hello' });
    const second = await inGroup;
    expect(second).to.include({ chatId: TEAM_GROUP.id, author: BOB.lid, isGroup: true });
    expect(second.sender).to.include({ id: BOB.lid, lid: BOB.lid, phone: BOB.pn });
    await second.reply('hi team');

    const sent = await h.phone<Sent>('sent');
    expect(sent.find((m) => m.body === 'hi Bob')?.to).to.equal(BOB.lid);
    expect(sent.find((m) => m.body === 'hi team')?.to).to.equal(TEAM_GROUP.id);
  });

  it('session expired: disconnected(session_expired)', async () => {
    await link();
    const disconnected = next<DisconnectReason>(client, 'disconnected');
    await h.phone('expire');
    expect(await disconnected).to.equal('session_expired');
  });
});
