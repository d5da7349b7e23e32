/**
 * Ids that cross from the page to Node on the newest build (the message key's `_serialized`
 * renamed to `$1`: whatsapp-web.js #201830, PRs #201832, #201847, #201848; wa-js #3484, #3488).
 * A reaction's keys and a poll vote's `parentMsgKey` cross by JSON (Client.js's `onReaction` and
 * `onPollVoteEvent`), so without the fixes they arrive without `_serialized` and wakit dropped the
 * events; a message emitted before READY crossed before the `getMessageModel` patch was in.
 * Checked on what wakit emits and on what whatsapp-web.js itself hands its users.
 */
import { expect } from 'chai';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import { nextEvent } from '../engines/engine-contract.js';
import { waitUntil } from '../helpers/wait-until.js';
import { NEWEST_BUILD } from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE, BOB, BOT, TEAM_GROUP } from './world.js';

type Key = { _serialized?: string };

describe('message ids on the newest build (renamed message key) + whatsapp-web.js 1.34.7', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  afterEach(async () => {
    await h.cleanup();
  });

  /** What whatsapp-web.js emitted for `event` on the latest client (its own objects). */
  const library = <T>(event: string): Promise<T> =>
    new Promise((resolve) => h.clients.at(-1)?.on(event, (value: T) => resolve(value)));

  describe('linked', () => {
    let engine: WwebjsEngine;
    beforeEach(async () => {
      h = await DoubleHarness.create({ build: NEWEST_BUILD });
      engine = await h.linkedEngine();
    });

    it('a reaction to a group message: message.reaction names it by its full id (participant suffix); the Reaction keys carry _serialized', async () => {
      const incoming = nextEvent(engine, 'message', (m) => m.body === 'in the group');
      await h.phone('receive', { from: TEAM_GROUP.id, author: ALICE.pn, body: 'in the group' });
      const [message] = await incoming;
      expect(message.id).to.equal(`false_${TEAM_GROUP.id}_${message.id.split('_')[2]}_${ALICE.pn}`);

      const reaction = nextEvent(engine, 'message.reaction');
      const own = library<{ id: Key; msgId: Key }>('message_reaction');
      await h.phone('react', message.id, '🎉', BOB.pn);
      expect((await reaction)[0]).to.include({
        messageId: message.id,
        chatId: TEAM_GROUP.id,
        senderId: BOB.pn,
        emoji: '🎉',
        fromMe: false,
      });
      const { id, msgId } = await own;
      expect(msgId._serialized).to.equal(message.id);
      expect(id._serialized).to.match(new RegExp(`^false_${TEAM_GROUP.id}_\\w+_${BOB.pn}$`));
    });

    it('a vote on a poll the bot sent to a group: poll.vote names the poll; the PollVote keys carry _serialized', async () => {
      const { id } = await engine.send(TEAM_GROUP.id, {
        kind: 'poll',
        poll: { question: 'Lunch?', options: ['yes', 'no'], allowMultipleAnswers: false },
      });
      // the bot's key in a lid-addressed group names its LID (Injected/Utils.js:425-451)
      expect(id).to.match(new RegExp(`^true_${TEAM_GROUP.id}_\\w+_${BOT.lid}$`));
      const vote = nextEvent(engine, 'poll.vote');
      const own = library<{ parentMsgKey: Key; parentMessage: { id: Key } }>('vote_update');
      await h.phone('vote', id, [0], ALICE.pn);
      expect((await vote)[0]).to.deep.include({
        pollMessageId: id,
        chatId: TEAM_GROUP.id,
        voter: ALICE.pn,
        selectedOptions: ['yes'],
      });
      const { parentMsgKey, parentMessage } = await own;
      expect(parentMsgKey._serialized).to.equal(id);
      expect(parentMessage.id._serialized).to.equal(id);
    });
  });

  it('a message emitted before READY (before the READY-time fixes) carries its id, and can be answered by it', async () => {
    h = await DoubleHarness.create({ build: NEWEST_BUILD });
    const engine = h.engine();
    const order: string[] = [];
    engine.on('ready', () => order.push('ready'));
    engine.on('message', (m) => m.body === 'early' && order.push('message'));
    const early = nextEvent(engine, 'message', (m) => m.body === 'early', 20_000);
    const qr = nextEvent(engine, 'qr', () => true, 15_000);
    await engine.start();
    const [code] = await qr;
    const own = library<{ id: Key }>('message');
    const delivered = h.phone<string>('receiveOnListen', { from: ALICE.pn, body: 'early' });
    await h.link(code);
    const id = await delivered;
    const [message] = await early;
    expect(message.id).to.equal(id);
    expect((await own).id._serialized).to.equal(id);
    await waitUntil(
      () => order.includes('ready'),
      15_000,
      () => order.join(),
    );
    expect(order).to.deep.equal(['message', 'ready']);
    await engine.ops.actions.react(message.id, '👍');
    expect(await h.phone('reactionsSent')).to.deep.equal([{ to: id, emoji: '👍' }]);
  });
});
