/**
 * Reactions, edits and deletes through the SDK on the simulator: both directions (the bot acts,
 * phones see it; phones act, the bot gets events), WhatsApp's rules (author only, 15-minute edit
 * window, delete for everyone by the author or a group admin within 2 days 12 hours), and the
 * queue's tracking of every action.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { EDIT_WINDOW_MS, REVOKE_WINDOW_MS } from '../../../src/entries/contract.js';
import {
  isWakitError,
  type BotClient,
  type Message,
  type Sdk,
  type TrackedSend,
} from '../../../src/index.js';
import type { EditUpdate, ReactionUpdate, RevokeUpdate } from '../../../src/entries/types.js';
import type { SimPhone } from '../../../src/engines/simulator/index.js';
import { BOT_ID, linkedClient, simulatorSdk, tempDir } from '../../helpers/sdk-fixtures.js';

const ALICE = '15550001111';
const ALICE_ID = `${ALICE}@c.us`;
const BOB = '15550002222';
const GROUP = '120363000000000042@g.us';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function expectCode(error: unknown, code: string): void {
  expect(isWakitError(error), String(error)).to.equal(true);
  expect((error as { code: string }).code).to.equal(code);
}

/** The next `event` of the client that matches. */
function next<T>(client: BotClient, event: string, match: (value: T) => boolean = () => true) {
  return new Promise<T>((resolve) => {
    const handler = (value: T): void => {
      if (!match(value)) return;
      client.off(event as 'message.reaction', handler as never);
      resolve(value);
    };
    client.on(event as 'message.reaction', handler as never);
  });
}

describe('message actions: reactions, edits, deletes (SDK on the simulator)', function () {
  this.timeout(10_000);
  let sdk: Sdk;
  let client: BotClient;
  let alice: SimPhone;
  let bob: SimPhone;
  let cleanup: () => Promise<void>;

  /** Alice writes to the bot; resolves with the bot's Message. */
  async function fromAlice(text: string): Promise<Message> {
    const received = next<Message>(client, 'message', (m) => m.body === text);
    await alice.send(BOT_ID, text);
    return received;
  }

  beforeEach(async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    sdk = simulatorSdk(dir.dir);
    alice = sdk.simulator.phone(ALICE, { pushname: 'Alice' });
    bob = sdk.simulator.phone(BOB, { pushname: 'Bob' });
    client = await linkedClient(sdk, 'bot');
  });

  afterEach(async () => {
    sinon.restore();
    await sdk.stop();
    await cleanup();
  });

  describe('reactions', () => {
    it('the bot reacts to a message: the sender sees it; "" removes it; the action is tracked', async () => {
      const message = await fromAlice('hello');
      const statuses: TrackedSend[] = [];
      client.on('message.status', (s) => statuses.push(s));
      const result = await client.messages.react(message.id, '👍');
      expect(result.id).to.equal(message.id);
      const seen = await alice.waitForAction((a) => a.type === 'reaction');
      expect(seen).to.include({ by: BOT_ID, chatId: BOT_ID, emoji: '👍' });
      expect([...alice.reactionsOn(seen.messageId!)]).to.deep.equal([[BOT_ID, '👍']]);
      const tracked = await sdk.sends.get(result.trackingId);
      expect(tracked).to.include({ kind: 'reaction', status: 'sent', chatId: ALICE_ID });
      expect(statuses.map((s) => s.status)).to.include('sent');

      await message.react('');
      const removed = await alice.waitForAction((a) => a.type === 'reaction' && a.emoji === '');
      expect(removed.by).to.equal(BOT_ID);
      expect(alice.reactionsOn(seen.messageId!).size).to.equal(0);
    });

    it("a phone reacts to the bot's message: message.reaction with the bot's id of it", async () => {
      const sent = await client.sendTextMessage({ to: ALICE_ID, text: 'rate me' });
      const inbox = await alice.waitForMessage((m) => m.body === 'rate me');
      const event = next<ReactionUpdate>(client, 'message.reaction', (u) => !u.fromMe);
      await alice.react(inbox.id, '❤️');
      expect(await event).to.deep.include({
        messageId: sent.id,
        chatId: ALICE_ID,
        senderId: ALICE_ID,
        emoji: '❤️',
        removed: false,
        fromMe: false,
      });
      const gone = next<ReactionUpdate>(client, 'message.reaction', (u) => u.removed);
      await alice.react(inbox.id, '');
      expect((await gone).emoji).to.equal('');
    });

    it("the bot's own reaction comes back as message.reaction with fromMe", async () => {
      const message = await fromAlice('mine');
      const own = next<ReactionUpdate>(client, 'message.reaction', (u) => u.fromMe);
      await client.messages.react(message.id, '🔥');
      expect(await own).to.deep.include({ messageId: message.id, emoji: '🔥', senderId: BOT_ID });
    });

    it('reacting to an unknown message is MESSAGE_NOT_FOUND; a bad id or emoji is VALIDATION_FAILED', async () => {
      await fromAlice('known');
      expectCode(
        await rejection(client.messages.react(`false_${ALICE_ID}_3EB0FFFFFFFFFFFFFFFFFF`, '👍')),
        'MESSAGE_NOT_FOUND',
      );
      expectCode(await rejection(client.messages.react('not-an-id', '👍')), 'VALIDATION_FAILED');
      const message = await fromAlice('again');
      expectCode(await rejection(client.messages.react(message.id, 'ok')), 'VALIDATION_FAILED');
      expectCode(await rejection(client.messages.react(message.id, '👍 👍')), 'VALIDATION_FAILED');
      for (const emoji of ['👍🏽', '👨‍👩‍👧', '🇳🇱', '1️⃣']) {
        await client.messages.react(message.id, emoji);
      }
    });

    it('in a group every member sees a reaction; a non-member cannot react', async () => {
      sdk.simulator.group({ id: GROUP, members: [ALICE, BOB, BOT_ID] });
      const received = next<Message>(client, 'message', (m) => m.body === 'group hi');
      await alice.send(GROUP, 'group hi');
      const message = await received;
      await message.react('🎉');
      const atBob = await bob.waitForAction((a) => a.type === 'reaction');
      expect(atBob).to.include({ chatId: GROUP, by: BOT_ID, emoji: '🎉' });
      const atAlice = await alice.waitForAction((a) => a.type === 'reaction');
      expect(atAlice.chatId).to.equal(GROUP);

      const event = next<ReactionUpdate>(
        client,
        'message.reaction',
        (u) => u.senderId === `${BOB}@c.us`,
      );
      const bobsView = bob.inbox.find((m) => m.body === 'group hi')!;
      await bob.react(bobsView.id, '😂');
      expect(await event).to.deep.include({ messageId: message.id, chatId: GROUP, emoji: '😂' });

      const carol = sdk.simulator.phone('15550003333');
      expectCode(await rejection(carol.react(bobsView.id, '👀')), 'MESSAGE_NOT_FOUND');
    });
  });

  describe('edits', () => {
    it('the bot edits its message: the receiver sees the new text and an edit event', async () => {
      const sent = await client.sendTextMessage({ to: ALICE_ID, text: 'helo' });
      const own = next<EditUpdate>(client, 'message.edit');
      const result = await client.messages.edit(sent.id, 'hello');
      expect(result.id).to.equal(sent.id);
      const seen = await alice.waitForAction((a) => a.type === 'edit');
      expect(seen).to.include({ by: BOT_ID, body: 'hello', previousBody: 'helo' });
      expect(alice.inbox.find((m) => m.id === seen.messageId)?.body).to.equal('hello');
      expect(await own).to.deep.include({ messageId: sent.id, fromMe: true, body: 'hello' });
      expect((await sdk.sends.get(result.trackingId))?.kind).to.equal('edit');
    });

    it('Message.edit on the message.create of an own send', async () => {
      const created = next<Message>(client, 'message.create', (m) => m.fromMe);
      await client.sendTextMessage({ to: ALICE_ID, text: 'draft' });
      await (await created).edit('final');
      expect((await alice.waitForAction((a) => a.type === 'edit')).body).to.equal('final');
    });

    it("editing someone else's message is PERMISSION_DENIED, before it is queued", async () => {
      const message = await fromAlice('not yours');
      const error = await rejection(message.edit('mine now'));
      expectCode(error, 'PERMISSION_DENIED');
      expect(client.info().queue.pending).to.equal(0);
    });

    it('a phone edits its message: message.edit with the new and previous text', async () => {
      const message = await fromAlice('see you at 5');
      const event = next<EditUpdate>(client, 'message.edit');
      // Any view of a message id resolves: Alice edits through the bot's id of her message.
      await alice.edit(message.id, 'see you at 6');
      expect(await event).to.deep.include({
        messageId: message.id,
        chatId: ALICE_ID,
        author: ALICE_ID,
        body: 'see you at 6',
        previousBody: 'see you at 5',
        fromMe: false,
      });
    });

    it('after the 15-minute window an edit is MESSAGE_TOO_OLD (injected clock)', async () => {
      const sent = await client.sendTextMessage({ to: ALICE_ID, text: 'typo' });
      const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
      clock.tick(EDIT_WINDOW_MS - 2_000);
      await client.messages.edit(sent.id, 'still in time');
      clock.tick(4_000);
      const error = await rejection(client.messages.edit(sent.id, 'too late'));
      expectCode(error, 'MESSAGE_TOO_OLD');
      expect((error as { details: { windowMs: number } }).details.windowMs).to.equal(
        EDIT_WINDOW_MS,
      );
    });

    it('only text and captions can be edited', async () => {
      const sent = await client.sendStickerMessage({
        to: ALICE_ID,
        sticker: { buffer: Buffer.from('RIFF....WEBP'), mimetype: 'image/webp' },
      });
      expectCode(await rejection(client.messages.edit(sent.id, 'text')), 'VALIDATION_FAILED');
    });
  });

  describe('deletes', () => {
    it('delete for everyone: the receiver sees it revoked; the bot gets message.revoke', async () => {
      const sent = await client.sendTextMessage({ to: ALICE_ID, text: 'oops' });
      const own = next<RevokeUpdate>(client, 'message.revoke');
      await client.messages.delete(sent.id, { forEveryone: true });
      const seen = await alice.waitForAction((a) => a.type === 'revoke');
      expect(seen).to.include({ by: BOT_ID, previousBody: 'oops' });
      const message = alice.inbox.find((m) => m.id === seen.messageId)!;
      expect(message.type).to.equal('revoked');
      expect(message.body).to.equal('');
      expect(await own).to.deep.include({ messageId: sent.id, by: BOT_ID, fromMe: true });
      expectCode(await rejection(client.messages.react(sent.id, '👍')), 'MESSAGE_NOT_FOUND');
    });

    it("deleting someone else's message for everyone is PERMISSION_DENIED, except as group admin", async () => {
      const message = await fromAlice('keep me');
      expectCode(await rejection(message.delete({ forEveryone: true })), 'PERMISSION_DENIED');

      sdk.simulator.group({ id: GROUP, members: [ALICE, BOB], admins: [BOT_ID] });
      const received = next<Message>(client, 'message', (m) => m.body === 'spam');
      await bob.send(GROUP, 'spam');
      const spam = await received;
      await spam.delete({ forEveryone: true });
      const atAlice = await alice.waitForAction((a) => a.type === 'revoke');
      expect(atAlice).to.include({ chatId: GROUP, by: BOT_ID });
      const atBob = await bob.waitForAction((a) => a.type === 'revoke');
      expect(atBob.by).to.equal(BOT_ID);
    });

    it('delete for me hides it for this account only; nobody is told', async () => {
      const message = await fromAlice('private');
      await message.delete();
      expectCode(await rejection(message.react('👍')), 'MESSAGE_NOT_FOUND');
      expect(alice.actions.filter((a) => a.type === 'revoke')).to.deep.equal([]);
    });

    it('after 2 days 12 hours a delete for everyone is MESSAGE_TOO_OLD; for me still works', async () => {
      const sent = await client.sendTextMessage({ to: ALICE_ID, text: 'old news' });
      const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
      clock.tick(REVOKE_WINDOW_MS + 2_000);
      expectCode(
        await rejection(client.messages.delete(sent.id, { forEveryone: true })),
        'MESSAGE_TOO_OLD',
      );
      await client.messages.delete(sent.id);
    });

    it('a phone revokes its message: message.revoke with who and the text before', async () => {
      const message = await fromAlice('regret');
      const event = next<RevokeUpdate>(client, 'message.revoke');
      await alice.revoke(message.id);
      expect(await event).to.deep.include({
        messageId: message.id,
        chatId: ALICE_ID,
        by: ALICE_ID,
        fromMe: false,
        previousBody: 'regret',
      });
      expectCode(await rejection(alice.edit(message.id, 'x')), 'MESSAGE_NOT_FOUND');
    });
  });
});
