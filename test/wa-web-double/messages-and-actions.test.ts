/**
 * Message kinds and actions on the real whatsapp-web.js 1.34.7 + WhatsApp Web double, at the
 * engine port: locations, contact cards and polls sent; reactions, edits and revokes both ways;
 * poll votes; calls offered by the phone side and rejected; chat state, seen and presence.
 */
import { expect } from 'chai';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import { nextEvent } from '../engines/engine-contract.js';
import { DoubleHarness } from './harness.js';
import { ALICE, BOB, BOT } from './world.js';

type Sent = Array<{ id: string; type: string; body: string }>;

describe('message kinds and actions on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(60_000);
  let h: DoubleHarness;
  let engine: WwebjsEngine;

  beforeEach(async () => {
    h = await DoubleHarness.create();
    engine = await h.linkedEngine();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('sends a location, a contact card and a poll', async () => {
    const created: string[] = [];
    engine.on('message.create', (m) => created.push(m.type));
    await engine.send(ALICE.pn, {
      kind: 'location',
      location: { latitude: 52.52, longitude: 13.405, name: 'Berlin' },
    });
    await engine.send(ALICE.pn, { kind: 'contact', contacts: [{ id: BOB.pn }] });
    await engine.send(ALICE.pn, {
      kind: 'poll',
      poll: { question: 'Lunch?', options: ['yes', 'no'], allowMultipleAnswers: false },
    });
    const sent = await h.phone<Sent>('sent');
    expect(sent.map((m) => m.type)).to.deep.equal(['location', 'vcard', 'poll_creation']);
    expect(sent[1].body).to.contain(`waid=${BOB.pn.split('@')[0]}`);
    expect(created).to.deep.equal(['location', 'vcard', 'poll_creation']);
  });

  it('incoming: undecrypted first then decrypted (one message event), quoting the bot, mentioning it', async () => {
    const ciphertexts: string[] = [];
    engine.on('message', (m) => ciphertexts.push(m.type));
    const decrypted = nextEvent(engine, 'message', (m) => m.body === 'secret');
    await h.phone('receive', { from: ALICE.pn, body: 'secret', ciphertextMs: 200 });
    const [message] = await decrypted;
    expect(message.type).to.equal('chat');
    expect(ciphertexts).to.deep.equal(['chat']);

    const { id } = await engine.send(ALICE.pn, { kind: 'text', text: 'question?', options: {} });
    const answer = nextEvent(engine, 'message', (m) => m.body === 'answer');
    // wakit's MessageData has no mentions: the library's own Message carries them, as the wids
    // of WhatsApp Web's mentionedJidList (typed string[] in index.d.ts, objects in fact)
    const library = new Promise<string[]>((resolve) =>
      h.clients
        .at(-1)
        ?.on('message', (m: { body: string; mentionedIds: Array<{ _serialized: string }> }) => {
          if (m.body === 'answer') resolve(m.mentionedIds.map((w) => w._serialized));
        }),
    );
    await h.phone('receive', { from: ALICE.pn, body: 'answer', quoted: id, mentions: [BOT.pn] });
    const [reply] = await answer;
    expect(reply).to.include({ hasQuotedMsg: true, quotedMessageId: id });
    expect(await library).to.deep.equal([BOT.pn]);
    const quoted = await engine.ops.messages.getQuoted(reply.id);
    expect(quoted).to.include({ id, body: 'question?', fromMe: true });
  });

  it('reactions both ways, an edit and a revoke of its own message', async () => {
    const incoming = nextEvent(engine, 'message');
    await h.phone('receive', { from: ALICE.pn, body: 'react to me' });
    const [message] = await incoming;
    await engine.ops.actions.react(message.id, '👍');
    expect(await h.phone('reactionsSent')).to.deep.equal([{ to: message.id, emoji: '👍' }]);

    const { id } = await engine.send(ALICE.pn, { kind: 'text', text: 'typo', options: {} });
    const reaction = nextEvent(engine, 'message.reaction', (r) => !r.fromMe);
    await h.phone('react', id, '❤️', ALICE.pn);
    expect((await reaction)[0]).to.include({ messageId: id, emoji: '❤️' });

    const edit = nextEvent(engine, 'message.edit');
    await engine.ops.actions.edit(id, 'fixed');
    expect((await edit)[0]).to.include({ messageId: id });
    expect((await h.phone<Sent>('sent')).find((m) => m.id === id)?.body).to.equal('fixed');

    const revoke = nextEvent(engine, 'message.revoke');
    await engine.ops.actions.delete(id, true);
    expect((await revoke)[0]).to.include({ messageId: id });
    expect((await h.phone<Sent>('sent')).find((m) => m.id === id)?.type).to.equal('revoked');
  });

  it('a poll vote from the phone side arrives as poll.vote with the chosen options', async () => {
    const { id } = await engine.send(ALICE.pn, {
      kind: 'poll',
      poll: { question: 'Lunch?', options: ['yes', 'no'], allowMultipleAnswers: false },
    });
    const vote = nextEvent(engine, 'poll.vote');
    await h.phone('vote', id, [1], ALICE.pn);
    const [data] = await vote;
    expect(data).to.deep.include({
      pollMessageId: id,
      chatId: ALICE.pn,
      voter: ALICE.pn,
      selectedOptions: ['no'],
    });
  });

  it('a call from the phone side arrives as call, and rejecting it reaches the phone', async () => {
    const offered = nextEvent(engine, 'call');
    const callId = await h.phone<string>('call', ALICE.pn, { isVideo: true });
    const [call] = await offered;
    expect(call).to.include({ id: callId, from: ALICE.pn, video: true, group: false });
    await engine.ops.calls.reject(callId);
    expect(await h.phone('rejectedCalls')).to.deep.equal([callId]);
  });

  it('chat state, seen and presence reach the phone side', async () => {
    await h.phone('receive', { from: ALICE.pn, body: 'one' });
    await engine.ops.presence.sendState(ALICE.pn, 'typing');
    await engine.ops.presence.markSeen(ALICE.pn);
    await engine.ops.presence.setOnline(false);
    const presence = await h.phone<Array<{ what: string }>>('presence');
    expect(presence.map((p) => p.what)).to.include.members(['typing', 'unavailable']);
    expect((await engine.ops.chats.get(ALICE.pn)).unreadCount).to.equal(0);
  });
});
