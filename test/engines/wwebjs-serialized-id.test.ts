/**
 * The Node-side fallback for ids that cross without `_serialized` (WhatsApp Web's renamed message
 * key, whatsapp-web.js #201830, PRs #201832, #201847, #201848): what `onReaction`,
 * `onPollVoteEvent` and a message model made before the page fix hand over, as JSON (own fields).
 */
import { expect } from 'chai';
import { toReactionUpdate } from '../../src/engines/wwebjs/actions.js';
import { toAckUpdate, toMessageData } from '../../src/engines/wwebjs/map-message.js';
import { toPollVote } from '../../src/engines/wwebjs/messages.js';
import { serializedId, withSerializedId } from '../../src/engines/wwebjs/serialized-id.js';
import type { MessageLike, PollVoteLike } from '../../src/engines/wwebjs/types.js';

const GROUP = '120363000000000002@g.us';
const ALICE = '15550000002@c.us';
const wid = (id: string) => ({ server: id.split('@')[1], user: id.split('@')[0], _serialized: id });
/** A message key as JSON on a build with the rename: `$1`, no `_serialized`. */
const renamedKey = (fromMe: boolean, remote: string, id: string, participant?: string) => ({
  fromMe,
  remote: wid(remote),
  id,
  ...(participant ? { participant: wid(participant) } : {}),
  $1: 'minified',
});

describe('wwebjs: ids that cross without _serialized (renamed message key)', () => {
  it('serializedId: the string, _serialized, or <fromMe>_<remote>_<id>[_<participant>] from the parts', () => {
    expect(serializedId('true_1@c.us_A')).to.equal('true_1@c.us_A');
    expect(serializedId({ _serialized: 'false_1@c.us_B' })).to.equal('false_1@c.us_B');
    expect(serializedId(renamedKey(true, ALICE, 'ABC'))).to.equal(`true_${ALICE}_ABC`);
    expect(serializedId(renamedKey(false, GROUP, 'ABC', ALICE))).to.equal(
      `false_${GROUP}_ABC_${ALICE}`,
    );
    // remote as a string (getMessageModel turns it into one) and participant as a string
    expect(serializedId({ fromMe: false, remote: GROUP, id: 'X', participant: ALICE })).to.equal(
      `false_${GROUP}_X_${ALICE}`,
    );
    for (const none of [undefined, null, '', {}, { remote: ALICE, id: 'X' }, { fromMe: true }]) {
      expect(serializedId(none), JSON.stringify(none)).to.equal(undefined);
    }
  });

  it('a reaction whose keys crossed by JSON still names its message', () => {
    const update = toReactionUpdate(
      {
        id: renamedKey(false, GROUP, 'R1', ALICE),
        msgId: renamedKey(true, GROUP, 'M1', '90000000000001@lid'),
        reaction: '👍',
        senderId: ALICE,
        timestamp: 1_700_000_000,
      },
      '15550000001@c.us',
    );
    expect(update).to.deep.equal({
      messageId: `true_${GROUP}_M1_90000000000001@lid`,
      chatId: GROUP,
      senderId: ALICE,
      emoji: '👍',
      removed: false,
      fromMe: false,
      timestamp: 1_700_000_000,
    });
  });

  it('a poll vote whose parentMsgKey and parent message id crossed by JSON still names the poll', () => {
    const key = renamedKey(true, GROUP, 'P1', '90000000000001@lid');
    const base: PollVoteLike = {
      voter: wid(ALICE),
      selectedOptions: [{ name: 'yes', localId: 0 }],
      interractedAtTs: 1_700_000_000_000,
      parentMsgKey: key,
    };
    const parent = {
      id: { ...key, remote: GROUP },
      fromMe: true,
      from: '15550000001@c.us',
      to: GROUP,
    } as unknown as MessageLike;
    for (const vote of [base, { ...base, parentMessage: parent }]) {
      expect(toPollVote(vote)).to.deep.equal({
        pollMessageId: `true_${GROUP}_P1_90000000000001@lid`,
        chatId: GROUP,
        voter: ALICE,
        selectedOptions: ['yes'],
        timestamp: 1_700_000_000,
      });
    }
  });

  it('a message whose id crossed without _serialized gets it (in place: the library reads it too)', () => {
    const message = {
      id: { fromMe: false, remote: ALICE, id: 'E1', $1: 'minified' },
      body: 'early',
      type: 'chat',
      timestamp: 1,
      from: ALICE,
      to: '15550000001@c.us',
      ack: 1,
      hasMedia: false,
      fromMe: false,
      hasQuotedMsg: false,
    } as unknown as MessageLike;
    expect(toMessageData(message).id).to.equal(`false_${ALICE}_E1`);
    expect(message.id._serialized).to.equal(`false_${ALICE}_E1`);
    const other = { ...message, id: { fromMe: true, remote: ALICE, id: 'E2' } } as MessageLike;
    expect(toAckUpdate(other, 2).messageId).to.equal(`true_${ALICE}_E2`);
    // an id that has its _serialized is left as it is
    const native = {
      id: { _serialized: 'true_x@c.us_N', fromMe: true, remote: 'y@c.us', id: 'Z' },
    };
    expect(withSerializedId(native).id._serialized).to.equal('true_x@c.us_N');
  });
});
