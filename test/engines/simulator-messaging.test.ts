/** Simulator-specific messaging: acks, failed delivery, groups, inboxes, forward, media, latency. */
import { expect } from 'chai';
import sinon from 'sinon';
import {
  SimulatorNetwork,
  SIM_INBOX_LIMIT,
  SIM_REGISTRY_LIMIT,
  type SimulatorEngineConfig,
} from '../../src/engines/simulator/index.js';
import type { AckUpdate, MessageData } from '../../src/engines/types.js';
import type { Engine } from '../../src/engines/engine.js';
import { expectCode, nextEvent } from './engine-contract.js';
import {
  MemorySessionStore,
  flush,
  seeded,
  silentLogger,
  simLink,
} from '../helpers/sim-harness.js';

const BOT = '15550000001';
const BOT_ID = `${BOT}@c.us`;
const ALICE = '15550001111';
const BOB = '15550002222';
const GROUP = '120363000000000042@g.us';
const text = (t: string, options = {}) => ({ kind: 'text' as const, text: t, options });

describe('simulator engine: messaging', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  let network: SimulatorNetwork;
  let engines: Engine[];

  async function linkedBot(config: Partial<SimulatorEngineConfig> = {}, name = 'bot', phone = BOT) {
    network ??= new SimulatorNetwork({ config, logger: silentLogger, random: seeded(3) });
    const engine = network.engineFactory()({
      clientName: name,
      store: new MemorySessionStore(),
      logger: silentLogger,
    });
    engines.push(engine);
    await simLink(network, engine, phone);
    return engine;
  }

  beforeEach(() => {
    engines = [];
    network = undefined as unknown as SimulatorNetwork;
  });
  afterEach(async () => {
    for (const engine of engines) await engine.stop();
    clock?.restore();
    clock = undefined;
  });

  it('acks progress 1 → 2 → 3 spaced by ackDelayMs, mirrored in the recipient inbox', async () => {
    network = new SimulatorNetwork({ config: { ackDelayMs: 100 }, logger: silentLogger });
    const alice = network.phone(ALICE);
    const bot = await linkedBot();
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const acks: AckUpdate[] = [];
    bot.on('message.ack', (u) => acks.push(u));
    const { id } = await bot.send(alice.id, text('hi Alice'));
    expect(id).to.match(/^true_15550001111@c\.us_3EB0[0-9A-F]{18}$/);
    const received = alice.inbox.at(-1);
    expect(received).to.include({
      id,
      body: 'hi Alice',
      chatId: BOT_ID,
      author: BOT_ID,
      type: 'chat',
      isGroup: false,
    });
    expect(acks).to.deep.equal([]);
    clock.tick(100);
    expect(acks.map((a) => a.ack)).to.deep.equal([1]);
    clock.tick(99);
    expect(acks).to.have.length(1);
    clock.tick(1);
    expect(received?.ack).to.equal(2);
    clock.tick(100);
    expect(acks).to.deep.equal([1, 2, 3].map((ack) => ({ messageId: id, chatId: alice.id, ack })));
    expect(received?.ack).to.equal(3);
    clock.tick(10_000);
    expect(acks).to.have.length(3);
  });

  it('failDelivery: ack -1, nothing delivered', async () => {
    network = new SimulatorNetwork({ config: { ackDelayMs: 1 }, logger: silentLogger });
    const alice = network.phone(ALICE);
    const bot = await linkedBot();
    network.failDelivery(ALICE);
    const ack = nextEvent(bot, 'message.ack');
    const { id } = await bot.send(alice.id, text('lost'));
    expect((await ack)[0]).to.deep.equal({ messageId: id, chatId: alice.id, ack: -1 });
    expect(alice.inbox).to.have.length(0);
    network.failDelivery(ALICE, false);
    await bot.send(alice.id, text('found'));
    expect(alice.inbox.map((m) => m.body)).to.deep.equal(['found']);
  });

  it('text options: quoted id and mentions reach the phone; media arrives with bytes and caption', async () => {
    network = new SimulatorNetwork({ logger: silentLogger });
    const alice = network.phone(ALICE, { pushname: 'Alice' });
    const bot = await linkedBot();
    const incoming = nextEvent(bot, 'message');
    const sent = await alice.send(BOT_ID, 'question?');
    const [question] = await incoming;
    expect(question.notifyName).to.equal('Alice');
    await bot.send(
      ALICE + '@c.us',
      text('answer', { quotedMessageId: question.id, mentions: [alice.id], linkPreview: true }),
    );
    const answer = await alice.waitForMessage((m) => m.body === 'answer');
    expect(answer.quotedMessageId).to.equal(question.id);
    expect(answer.mentionedIds).to.deep.equal([alice.id]);
    expect(sent.id.startsWith(`true_${BOT_ID}_`)).to.equal(true);

    const data = Buffer.from('%PDF fake');
    await bot.send(alice.id, {
      kind: 'document',
      media: { data, mimetype: 'application/pdf', filename: 'a.pdf' },
      caption: 'doc',
    });
    const doc = await alice.waitForMessage((m) => m.type === 'document');
    expect(doc).to.include({ body: 'doc', caption: 'doc' });
    expect(doc.media?.filename).to.equal('a.pdf');
    expect(Buffer.compare(doc.media?.data ?? Buffer.alloc(0), data)).to.equal(0);
    // the bot can download its own sent media
    expect((await bot.downloadMedia(doc.id)).filename).to.equal('a.pdf');
  });

  it('forward marks the copy as forwarded at the target; unknown ids are MESSAGE_NOT_FOUND', async () => {
    network = new SimulatorNetwork({ logger: silentLogger });
    const alice = network.phone(ALICE);
    const bob = network.phone(BOB);
    const bot = await linkedBot();
    const incoming = nextEvent(bot, 'message');
    await alice.send(BOT_ID, { data: Buffer.from('img'), mimetype: 'image/jpeg', caption: 'pic' });
    const [message] = await incoming;
    const created = nextEvent(bot, 'message.create', (m) => m.fromMe);
    const { id } = await bot.forward(message.id, bob.id);
    expect((await created)[0]).to.include({
      id,
      isForwarded: true,
      type: 'image',
      hasMedia: true,
      body: 'pic',
    });
    const copy = await bob.waitForMessage();
    expect(copy).to.include({ isForwarded: true, type: 'image', author: BOT_ID });
    await expectCode(bot.forward('false_1@c.us_NOPE', bob.id), 'MESSAGE_NOT_FOUND');
  });

  it('groups: delivery to every member, inbound from/author, adminsOnly, membership and isGroupAdmin', async () => {
    network = new SimulatorNetwork({ logger: silentLogger });
    const group = network.group({
      id: GROUP,
      name: 'Team',
      members: [BOT, ALICE, `${BOB}@c.us`],
      admins: [ALICE],
    });
    network.group({ id: '120363000000000043', members: [ALICE, BOB] });
    const bot = await linkedBot();
    const alice = network.phone(ALICE);
    const bob = network.phone(BOB);

    const created = nextEvent(bot, 'message.create', (m) => m.fromMe);
    const { id } = await bot.send(GROUP, text('hello team'));
    expect(id.startsWith(`true_${GROUP}_`)).to.equal(true);
    expect((await created)[0]).to.include({ isGroup: true, chatId: GROUP, author: BOT_ID });
    for (const phone of [alice, bob]) {
      expect(phone.inbox.at(-1)).to.include({ id, chatId: GROUP, author: BOT_ID, isGroup: true });
    }
    expect(network.linkedPhone('bot')?.inbox).to.have.length(0);

    const incoming = nextEvent(bot, 'message');
    await bob.send(GROUP, 'hi bot');
    const [message] = await incoming;
    expect(message).to.include({
      from: GROUP,
      chatId: GROUP,
      to: BOT_ID,
      author: bob.id,
      isGroup: true,
    });
    expect(message.id).to.equal(`false_${GROUP}_${message.id.split('_')[2]}_${bob.id}`);

    expect(await bot.ops.groups.isAdmin(GROUP, ALICE + '@c.us')).to.equal(true);
    expect(await bot.ops.groups.isAdmin(GROUP, bob.id)).to.equal(false);
    await expectCode(bot.ops.groups.isAdmin('999999999@g.us', bob.id), 'CHAT_NOT_FOUND');

    group.adminsOnly = true;
    await expectCode(bot.send(GROUP, text('x')), 'PERMISSION_DENIED');
    await expectCode(bob.send(GROUP, 'x'), 'PERMISSION_DENIED');
    group.setAdmin(BOT, true);
    await bot.send(GROUP, text('as admin'));
    await expectCode(bot.send('120363000000000043@g.us', text('x')), 'PERMISSION_DENIED');
    await expectCode(bot.send('120363000000000044@g.us', text('x')), 'CHAT_NOT_FOUND');
    await expectCode(bot.send('19990000000@c.us', text('x')), 'CHAT_NOT_FOUND');
  });

  it('two bots on one network talk to each other', async () => {
    network = new SimulatorNetwork({ logger: silentLogger });
    const one = await linkedBot({}, 'one', '15550000011');
    const two = await linkedBot({}, 'two', '15550000022');
    const incoming = nextEvent(two, 'message');
    await one.send('15550000022@c.us', text('ping'));
    const [message] = await incoming;
    expect(message).to.include({
      from: '15550000011@c.us',
      to: '15550000022@c.us',
      body: 'ping',
      fromMe: false,
    });
  });

  it('latencyMs delays a send; stopping meanwhile rejects it with CLIENT_NOT_READY', async () => {
    network = new SimulatorNetwork({
      config: { latencyMs: 300, ackDelayMs: 0 },
      logger: silentLogger,
    });
    const alice = network.phone(ALICE);
    const bot = await linkedBot();
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let done = false;
    const sending = bot.send(alice.id, text('slow')).then(() => (done = true));
    clock.tick(299);
    await flush();
    expect(done).to.equal(false);
    expect(alice.inbox).to.have.length(0);
    clock.tick(1);
    await flush();
    expect(done).to.equal(true);
    await sending;
    const pending = bot.send(alice.id, text('never'));
    await bot.stop();
    await expectCode(pending, 'CLIENT_NOT_READY');
    clock.tick(1_000);
    expect(alice.inbox.map((m) => m.body)).to.deep.equal(['slow']);
  });

  it('inboxes keep the last SIM_INBOX_LIMIT messages; waitForMessage waits and times out', async () => {
    network = new SimulatorNetwork({ logger: silentLogger });
    const alice = network.phone(ALICE);
    const bob = network.phone(BOB);
    const seen: MessageData[] = [];
    const bot = await linkedBot();
    bot.on('message', (m) => seen.push(m));
    for (let i = 0; i < SIM_INBOX_LIMIT * 2 + 5; i++) await alice.send(bob.id, `m${i}`);
    expect(bob.inbox).to.have.length(SIM_INBOX_LIMIT);
    expect(bob.inbox.at(-1)?.body).to.equal(`m${SIM_INBOX_LIMIT * 2 + 4}`);
    expect(seen).to.have.length(0);

    const later = bob.waitForMessage((m) => m.body === 'later', 2_000);
    await alice.send(bob.id, 'later');
    expect((await later).author).to.equal(alice.id);
    await expectCode(
      bob.waitForMessage((m) => m.body === 'never', 20),
      'TIMEOUT',
    );
    await expectCode(alice.send('19990000000@c.us', 'x'), 'CHAT_NOT_FOUND');
  });

  it('forgets the oldest messages beyond SIM_REGISTRY_LIMIT (forward / download look-ups)', async () => {
    network = new SimulatorNetwork({ logger: silentLogger });
    const alice = network.phone(ALICE);
    const bot = await linkedBot();
    const first = await alice.send(BOT_ID, { data: Buffer.from('x'), mimetype: 'image/png' });
    expect((await bot.downloadMedia(first.id)).mimetype).to.equal('image/png');
    for (let i = 0; i < SIM_REGISTRY_LIMIT - 1; i++) await alice.send(BOT_ID, 'filler');
    expect((await bot.downloadMedia(first.id)).mimetype).to.equal('image/png');
    await alice.send(BOT_ID, 'one too many');
    await expectCode(bot.downloadMedia(first.id), 'MEDIA_NOT_FOUND');
    await expectCode(bot.forward(first.id, alice.id), 'MESSAGE_NOT_FOUND');
  });

  it('a throwing listener does not break sends or other listeners', async () => {
    network = new SimulatorNetwork({ logger: silentLogger });
    const alice = network.phone(ALICE);
    const bot = await linkedBot();
    bot.on('message', () => {
      throw new Error('handler bug');
    });
    const got = nextEvent(bot, 'message.create', (m) => !m.fromMe);
    await alice.send(BOT_ID, 'still delivered');
    expect((await got)[0].body).to.equal('still delivered');
  });
});
