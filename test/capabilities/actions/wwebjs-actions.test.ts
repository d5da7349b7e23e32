/**
 * The whatsapp-web.js adapter for message actions and presence, against the fake Client
 * (test/helpers/fake-wwebjs-actions.ts, modelled on whatsapp-web.js 1.34): which library calls are
 * made, the rules checked before the library's silent no-ops, and the mapping of its events.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import sinon from 'sinon';
import { EDIT_WINDOW_MS, REVOKE_WINDOW_MS } from '../../../src/engines/ports/actions.js';
import { type WwebjsEngine } from '../../../src/engines/wwebjs/index.js';
import { expectCode, nextEvent } from '../../engines/engine-contract.js';
import {
  BOT,
  CONTACT,
  OPEN_GROUP,
  RESTRICTED_GROUP,
  populatedNetwork,
  type FakeClient,
  type FakeWhatsAppNetwork,
} from '../../helpers/fake-wwebjs-client.js';
import '../../helpers/fake-wwebjs-actions.js';
import { linkedWwebjsEngine } from '../../helpers/linked-wwebjs-engine.js';

const logger = pino({ level: 'silent' });

describe('wwebjs engine: reactions, edits, deletes and presence (fake whatsapp-web.js)', function () {
  this.timeout(10_000);
  let dir: string;
  let network: FakeWhatsAppNetwork;
  let engine: WwebjsEngine;
  let client: FakeClient;

  const calls = (method: string): unknown[][] =>
    client.calls.filter((c) => c.method === method).map((c) => c.args);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-actions-'));
    network = populatedNetwork({ ackDelayMs: 5 });
    ({ engine, client } = await linkedWwebjsEngine(network, dir, logger));
  });

  afterEach(async () => {
    sinon.restore();
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  });

  describe('reactions', () => {
    it('react → Message#react (Client#sendReaction); the own reaction comes back as an event', async () => {
      const raw = network.receive(BOT, CONTACT, { text: 'hi' });
      const own = nextEvent(engine, 'message.reaction');
      await engine.ops.actions.react(raw.id._serialized, '👍');
      expect(calls('sendReaction')).to.deep.equal([[raw.id._serialized, '👍']]);
      const [update] = await own;
      expect(update).to.deep.include({
        messageId: raw.id._serialized,
        chatId: CONTACT,
        senderId: BOT,
        emoji: '👍',
        removed: false,
        fromMe: true,
      });
    });

    it('an unknown message is MESSAGE_NOT_FOUND (the library would do nothing)', async () => {
      await expectCode(
        engine.ops.actions.react(`false_${CONTACT}_3EB0000000000000DEAD`, '👍'),
        'MESSAGE_NOT_FOUND',
      );
      expect(calls('sendReaction')).to.deep.equal([]);
    });

    it('message_reaction of a contact → message.reaction; "" → removed', async () => {
      const sent = await engine.send(CONTACT, { kind: 'text', text: 'hello', options: {} });
      const event = nextEvent(engine, 'message.reaction');
      network.reactFrom(BOT, CONTACT, sent.id, '❤️');
      expect((await event)[0]).to.deep.include({
        messageId: sent.id,
        chatId: CONTACT,
        senderId: CONTACT,
        emoji: '❤️',
        fromMe: false,
      });
      const removed = nextEvent(engine, 'message.reaction');
      network.reactFrom(BOT, CONTACT, sent.id, '');
      expect((await removed)[0]).to.deep.include({ emoji: '', removed: true });
    });
  });

  describe('edits', () => {
    it('editMessage → Message#edit; message_edit → message.edit with the previous text', async () => {
      const sent = await engine.send(CONTACT, { kind: 'text', text: 'helo', options: {} });
      const event = nextEvent(engine, 'message.edit');
      await engine.ops.actions.edit(sent.id, 'hello');
      expect(calls('edit')).to.deep.equal([[sent.id, 'hello']]);
      expect((await event)[0]).to.deep.include({
        messageId: sent.id,
        chatId: CONTACT,
        author: BOT,
        body: 'hello',
        previousBody: 'helo',
        fromMe: true,
      });
    });

    it("someone else's message is PERMISSION_DENIED without calling the library", async () => {
      const raw = network.receive(BOT, CONTACT, { text: 'theirs' });
      await expectCode(engine.ops.actions.edit(raw.id._serialized, 'mine'), 'PERMISSION_DENIED');
      expect(calls('edit')).to.deep.equal([]);
    });

    it('past the 15-minute window: MESSAGE_TOO_OLD; a refused edit (null) is INVALID_STATE', async () => {
      const sent = await engine.send(CONTACT, { kind: 'text', text: 'old', options: {} });
      const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
      clock.tick(EDIT_WINDOW_MS + 2_000);
      await expectCode(engine.ops.actions.edit(sent.id, 'new'), 'MESSAGE_TOO_OLD');
      expect(calls('edit')).to.deep.equal([]);
      clock.restore();
      const media = await engine.send(CONTACT, {
        kind: 'image',
        media: { data: Buffer.from('png'), mimetype: 'image/png' },
      });
      await expectCode(engine.ops.actions.edit(media.id, 'caption'), 'INVALID_STATE');
    });

    it('a contact edits its message: message.edit', async () => {
      const raw = network.receive(BOT, CONTACT, { text: 'at 5' });
      const event = nextEvent(engine, 'message.edit');
      network.editFrom(BOT, raw.id._serialized, 'at 6');
      expect((await event)[0]).to.deep.include({
        messageId: raw.id._serialized,
        chatId: CONTACT,
        author: CONTACT,
        body: 'at 6',
        previousBody: 'at 5',
        fromMe: false,
      });
    });
  });

  describe('deletes', () => {
    it('for everyone → Message#delete(true); message_revoke_everyone → message.revoke', async () => {
      const sent = await engine.send(CONTACT, { kind: 'text', text: 'oops', options: {} });
      const event = nextEvent(engine, 'message.revoke');
      await engine.ops.actions.delete(sent.id, true);
      expect(calls('delete')).to.deep.equal([[sent.id, true]]);
      expect((await event)[0]).to.deep.include({
        messageId: sent.id,
        chatId: CONTACT,
        by: BOT,
        fromMe: true,
        previousBody: 'oops',
      });
      await expectCode(engine.ops.actions.react(sent.id, '👍'), 'MESSAGE_NOT_FOUND');
    });

    it("someone else's message, not as group admin: PERMISSION_DENIED (the library would delete it for me only)", async () => {
      const raw = network.receive(BOT, CONTACT, { text: 'private' });
      await expectCode(engine.ops.actions.delete(raw.id._serialized, true), 'PERMISSION_DENIED');
      network.groups.get(RESTRICTED_GROUP)!.participants.push({ id: CONTACT, isAdmin: false });
      const inGroup = network.receive(BOT, CONTACT, { text: 'g' }, RESTRICTED_GROUP);
      await expectCode(
        engine.ops.actions.delete(inGroup.id._serialized, true),
        'PERMISSION_DENIED',
      );
      expect(calls('delete')).to.deep.equal([]);
      // Where the bot is an admin it may.
      const spam = network.receive(BOT, CONTACT, { text: 'spam' }, OPEN_GROUP);
      const event = nextEvent(engine, 'message.revoke');
      await engine.ops.actions.delete(spam.id._serialized, true);
      expect((await event)[0]).to.deep.include({ chatId: OPEN_GROUP, fromMe: false });
    });

    it('past 2 days 12 hours: MESSAGE_TOO_OLD; for me goes through', async () => {
      const sent = await engine.send(CONTACT, { kind: 'text', text: 'old', options: {} });
      const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
      clock.tick(REVOKE_WINDOW_MS + 2_000);
      await expectCode(engine.ops.actions.delete(sent.id, true), 'MESSAGE_TOO_OLD');
      await engine.ops.actions.delete(sent.id, false);
      expect(calls('delete')).to.deep.equal([[sent.id, false]]);
    });

    it('a contact revokes its message: message.revoke', async () => {
      const raw = network.receive(BOT, CONTACT, { text: 'regret' });
      const event = nextEvent(engine, 'message.revoke');
      network.revokeFrom(BOT, raw.id._serialized);
      expect((await event)[0]).to.deep.include({
        messageId: raw.id._serialized,
        by: CONTACT,
        fromMe: false,
        previousBody: 'regret',
      });
    });
  });

  describe('presence', () => {
    it('markChatSeen → Client#sendSeen; false (no such chat) is CHAT_NOT_FOUND', async () => {
      await engine.ops.presence.markSeen(CONTACT);
      expect(calls('sendSeen')).to.deep.equal([[CONTACT]]);
      await expectCode(engine.ops.presence.markSeen('19990009999@c.us'), 'CHAT_NOT_FOUND');
    });

    it('sendChatState → Chat#sendStateTyping / sendStateRecording / clearState', async () => {
      await engine.ops.presence.sendState(CONTACT, 'typing');
      await engine.ops.presence.sendState(OPEN_GROUP, 'recording');
      await engine.ops.presence.sendState(CONTACT, 'paused');
      expect(calls('sendStateTyping')).to.deep.equal([[CONTACT]]);
      expect(calls('sendStateRecording')).to.deep.equal([[OPEN_GROUP]]);
      expect(calls('clearState')).to.deep.equal([[CONTACT]]);
      await expectCode(
        engine.ops.presence.sendState('120363000000000099@g.us', 'typing'),
        'CHAT_NOT_FOUND',
      );
    });

    it('setOnline → sendPresenceAvailable / sendPresenceUnavailable', async () => {
      await engine.ops.presence.setOnline(false);
      await engine.ops.presence.setOnline(true);
      expect(
        client.calls.map((c) => c.method).filter((m) => m.startsWith('sendPresence')),
      ).to.deep.equal(['sendPresenceUnavailable', 'sendPresenceAvailable']);
    });

    it('a browser gone mid-call is a coded error, not a TypeError', async () => {
      client.pupPage = null;
      await expectCode(engine.ops.presence.setOnline(true), 'ENGINE_ERROR');
      await expectCode(engine.ops.presence.markSeen(CONTACT), 'ENGINE_ERROR');
    });
  });
});
