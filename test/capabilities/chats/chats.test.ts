/**
 * Chats through the SDK on the simulator: the list (sorted by last activity, cursor pages,
 * unreadOnly), one chat, the history (newest first, `before`), LID chats, and the errors.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import type { BotClient, Sdk } from '../../../src/index.js';
import type { SimPhone } from '../../../src/engines/simulator/index.js';
import {
  BOT_ID,
  BOT_PHONE,
  linkedClient,
  simulatorSdk,
  tempDir,
} from '../../helpers/sdk-fixtures.js';
import { rejection } from '../../helpers/rejection.js';

const ALICE = '15550001111';
const ALICE_ID = `${ALICE}@c.us`;
const BOB = '15550002222';
const GROUP = '120363000000000001@g.us';
const QUIET_GROUP = '120363000000000002@g.us';

/** The phone sends `text` to the bot; resolves once the bot's client received it. */
async function arrive(client: BotClient, phone: SimPhone, text: string, to = BOT_ID) {
  const received = new Promise<void>((resolve) => {
    const listener = (message: { body: string }) => {
      if (message.body !== text) return;
      client.off('message', listener);
      resolve();
    };
    client.on('message', listener);
  });
  await phone.send(to, text);
  await received;
}

describe('chats (SDK on the simulator)', () => {
  let sdk: Sdk;
  let client: BotClient;
  let cleanup: () => Promise<void>;
  let clock: sinon.SinonFakeTimers;

  beforeEach(async () => {
    const dir = await tempDir('wakit-chats-');
    cleanup = dir.cleanup;
    sdk = simulatorSdk(dir.dir);
    client = await linkedClient(sdk, 'bot');
    // Only Date is faked: each step of a test happens a second later than the previous one.
    clock = sinon.useFakeTimers({ now: Date.UTC(2026, 10, 22, 9), toFake: ['Date'] });
  });

  afterEach(async () => {
    clock.restore();
    await sdk.stop({ drainTimeoutMs: 100 });
    await cleanup();
  });

  it('lists chats by last activity, with unread counts and the last message', async () => {
    const alice = sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    const bob = sdk.simulator.phone(BOB, { pushname: 'Bob' });
    sdk.simulator.group({ id: GROUP, name: 'Team', members: [BOT_PHONE, ALICE, BOB] });
    sdk.simulator.group({ id: QUIET_GROUP, name: 'Quiet', members: [BOT_PHONE, BOB] });
    await arrive(client, alice, 'hi from alice');
    clock.tick(1_000);
    await arrive(client, bob, 'hi from bob');
    clock.tick(1_000);
    await arrive(client, bob, 'bob again');
    clock.tick(1_000);
    await arrive(client, alice, 'in the group', GROUP);

    const page = await client.chats.list({ limit: 10 });
    expect(page.nextCursor).to.equal(null);
    expect(page.items.map((c) => c.id)).to.deep.equal([
      GROUP,
      `${BOB}@c.us`,
      ALICE_ID,
      QUIET_GROUP,
    ]);
    const [group, bobChat, aliceChat, quiet] = page.items;
    expect(group).to.include({ name: 'Team', isGroup: true, unreadCount: 1 });
    expect(group?.lastMessage).to.include({
      body: 'in the group',
      fromMe: false,
      author: ALICE_ID,
    });
    expect(bobChat).to.include({ name: 'Bob', isGroup: false, unreadCount: 2 });
    expect(bobChat?.lastMessage).to.include({ body: 'bob again', type: 'chat', fromMe: false });
    expect(aliceChat).to.include({ name: 'Alice', unreadCount: 1 });
    expect(aliceChat?.timestamp).to.be.below(bobChat.timestamp);
    // presence.markSeen clears the unread count of that chat only (a group, a person)
    await client.presence.markSeen(GROUP);
    await client.presence.markSeen(`${BOB}@c.us`);
    const seen = await client.chats.list({ limit: 10 });
    expect(seen.items.map((c) => [c.id, c.unreadCount])).to.deep.equal([
      [GROUP, 0],
      [`${BOB}@c.us`, 0],
      [ALICE_ID, 1],
      [QUIET_GROUP, 0],
    ]);
    // A group the bot is in but nobody wrote to yet: last, with no activity.
    expect(quiet).to.deep.equal({
      id: QUIET_GROUP,
      name: 'Quiet',
      isGroup: true,
      unreadCount: 0,
      timestamp: 0,
      archived: false,
      pinned: false,
      muted: false,
    });
  });

  it('pages with stable cursors: no chat twice, none missed, also while chats move', async () => {
    const phones = ['15550003001', '15550003002', '15550003003', '15550003004', '15550003005'];
    for (const number of phones) {
      await arrive(client, sdk.simulator.phone(number), `hello ${number}`);
      clock.tick(1_000);
    }
    const first = await client.chats.list({ limit: 2 });
    expect(first.items.map((c) => c.id)).to.deep.equal(['15550003005@c.us', '15550003004@c.us']);
    expect(first.nextCursor).to.be.a('string');
    // Activity in a chat of the first page moves it to the top: it is not repeated.
    await arrive(client, sdk.simulator.phone(phones[4]), 'again');
    const second = await client.chats.list({ limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((c) => c.id)).to.deep.equal(['15550003003@c.us', '15550003002@c.us']);
    const third = await client.chats.list({ limit: 2, cursor: second.nextCursor! });
    expect(third.items.map((c) => c.id)).to.deep.equal(['15550003001@c.us']);
    expect(third.nextCursor).to.equal(null);
    // A fresh first page shows the moved chat on top.
    expect((await client.chats.list({ limit: 1 })).items[0]?.id).to.equal('15550003005@c.us');
  });

  it('chats in the same second are ordered by id, and pages still split between them', async () => {
    for (const number of ['15550004003', '15550004001', '15550004002']) {
      await arrive(client, sdk.simulator.phone(number), 'same second');
    }
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.chats.list({ limit: 1, ...(cursor ? { cursor } : {}) });
      ids.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(ids).to.deep.equal(['15550004001@c.us', '15550004002@c.us', '15550004003@c.us']);
  });

  it('unreadOnly leaves out chats read by answering them', async () => {
    const alice = sdk.simulator.phone(ALICE);
    const bob = sdk.simulator.phone(BOB);
    await arrive(client, alice, 'question');
    await arrive(client, bob, 'other question');
    expect((await client.chats.list({ unreadOnly: true })).items).to.have.length(2);
    await client.sendTextMessage({ to: ALICE_ID, text: 'answer' });
    const unread = await client.chats.list({ unreadOnly: true });
    expect(unread.items.map((c) => c.id)).to.deep.equal([`${BOB}@c.us`]);
    const aliceChat = await client.chats.get(ALICE);
    expect(aliceChat).to.include({ unreadCount: 0 });
    expect(aliceChat.lastMessage).to.include({ body: 'answer', fromMe: true });
  });

  it('chats.get by number, @c.us or @lid; archived, pinned and muted from the phone', async () => {
    const lidPhone = sdk.simulator.phone('15550005555', {
      lidAddressed: true,
      lid: '123456789012345',
      pushname: 'Lia',
    });
    await arrive(client, lidPhone, 'by lid', BOT_ID);
    const byLid = await client.chats.get('123456789012345@lid');
    expect(byLid).to.include({ id: '123456789012345@lid', name: 'Lia', unreadCount: 1 });
    expect(await client.chats.get('15550005555@c.us')).to.deep.equal(byLid);
    const me = sdk.simulator.linkedPhone('bot')!;
    me.addContact('15550005555', 'Lia (work)');
    me.setChatFlags('15550005555', { archived: true, pinned: true, muted: true });
    expect(await client.chats.get('123456789012345@lid')).to.include({
      name: 'Lia (work)',
      archived: true,
      pinned: true,
      muted: true,
    });
    // A new message brings an archived chat back (pinned and muted stay).
    await arrive(client, lidPhone, 'again', BOT_ID);
    expect(await client.chats.get('123456789012345@lid')).to.include({
      archived: false,
      pinned: true,
      muted: true,
      unreadCount: 2,
    });
  });

  it('chats.messages: newest first, limit, and before pages back through the history', async () => {
    const alice = sdk.simulator.phone(ALICE);
    for (let i = 1; i <= 5; i++) {
      await arrive(client, alice, `m${i}`);
      clock.tick(1_000);
    }
    await client.sendTextMessage({ to: ALICE_ID, text: 'reply' });
    const latest = await client.chats.messages(ALICE_ID, { limit: 3 });
    expect(latest.map((m) => m.body)).to.deep.equal(['reply', 'm5', 'm4']);
    expect(latest[0]).to.include({ fromMe: true, chatId: ALICE_ID, from: BOT_ID });
    expect(latest[1]).to.include({ fromMe: false, chatId: ALICE_ID, from: ALICE_ID });
    const older = await client.chats.messages(ALICE, { limit: 3, before: latest[2].id });
    expect(older.map((m) => m.body)).to.deep.equal(['m3', 'm2', 'm1']);
    expect(await client.chats.messages(ALICE, { before: older[2].id })).to.deep.equal([]);
    expect((await client.chats.messages(ALICE)).map((m) => m.body)).to.have.length(6);
  });

  it('chats.messages in a group carries authors; a quiet group has no messages', async () => {
    const alice = sdk.simulator.phone(ALICE);
    sdk.simulator.group({ id: GROUP, members: [BOT_PHONE, ALICE] });
    sdk.simulator.group({ id: QUIET_GROUP, members: [BOT_PHONE, BOB] });
    await arrive(client, alice, 'group hello', GROUP);
    await client.sendTextMessage({ to: GROUP, text: 'bot hello' });
    const messages = await client.chats.messages(GROUP, { limit: 10 });
    expect(messages.map((m) => [m.body, m.author])).to.deep.equal([
      ['bot hello', BOT_ID],
      ['group hello', ALICE_ID],
    ]);
    expect(await client.chats.messages(QUIET_GROUP)).to.deep.equal([]);
  });

  it('unknown chats, unknown messages, bad ids, limits and cursors are coded errors', async () => {
    sdk.simulator.phone(BOB);
    await arrive(client, sdk.simulator.phone(ALICE), 'hi');
    expect((await rejection(client.chats.get(BOB))).code).to.equal('CHAT_NOT_FOUND');
    expect((await rejection(client.chats.get('19990009999'))).code).to.equal('CHAT_NOT_FOUND');
    expect((await rejection(client.chats.get('120363999999999999@g.us'))).code).to.equal(
      'CHAT_NOT_FOUND',
    );
    expect((await rejection(client.chats.messages(BOB))).code).to.equal('CHAT_NOT_FOUND');
    const missing = await rejection(
      client.chats.messages(ALICE, { before: 'false_15550001111@c.us_3EB0FFFFFFFFFFFFFFFFFF' }),
    );
    expect(missing.code).to.equal('MESSAGE_NOT_FOUND');
    expect((await rejection(client.chats.get('status@broadcast'))).code).to.equal(
      'INVALID_CHAT_ID',
    );
    expect((await rejection(client.chats.get('nonsense'))).code).to.equal('INVALID_CHAT_ID');
    expect((await rejection(client.chats.list({ limit: 0 }))).code).to.equal('VALIDATION_FAILED');
    expect((await rejection(client.chats.list({ limit: 501 }))).code).to.equal('VALIDATION_FAILED');
    expect((await rejection(client.chats.list({ cursor: 'bm9wZQ' }))).code).to.equal(
      'VALIDATION_FAILED',
    );
    expect((await rejection(client.chats.messages(ALICE, { limit: 1.5 }))).code).to.equal(
      'VALIDATION_FAILED',
    );
  });

  it('needs a READY client', async () => {
    await client.stop();
    const error = await rejection(client.chats.list());
    expect(error.code).to.equal('CLIENT_NOT_READY');
    expect(error.details).to.include({ client: 'bot', state: 'STOPPED' });
    expect((await rejection(client.chats.messages(ALICE))).code).to.equal('CLIENT_NOT_READY');
  });
});
