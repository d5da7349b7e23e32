import { expect } from 'chai';
import sinon from 'sinon';
import { ContactCache, SenderCompleter } from '../../src/client/inbound/contact-cache.js';
import type { ContactInfo, MessageData } from '../../src/engines/types.js';

const ALICE = '15550001111@c.us';
const ALICE_LID = '123456789012345@lid';

function message(id: string, sender: MessageData['sender']): MessageData {
  return {
    id,
    body: '',
    from: sender.id,
    to: 'me@c.us',
    chatId: sender.id,
    timestamp: 0,
    hasMedia: false,
    isGroup: false,
    broadcast: false,
    hasQuotedMsg: false,
    fromMe: false,
    type: 'chat',
    ack: 1,
    sender,
    mentionedIds: [],
    isChannel: false,
    isStatus: false,
  };
}

describe('contact cache', () => {
  it('shares one look-up per id, remembers the answer under id, LID and phone, and expires it', async () => {
    // a real time (lru-cache takes an entry stored at time 0 for one without a TTL)
    let now = 1_700_000_000_000;
    const asked: string[] = [];
    const cache = new ContactCache(
      (id) => {
        asked.push(id);
        return Promise.resolve({ id, lid: ALICE_LID, phone: ALICE, isRegistered: true });
      },
      { ttlMs: 1_000, now: () => now },
    );
    const [a, b] = await Promise.all([cache.resolve(ALICE), cache.resolve(ALICE)]);
    expect(a).to.equal(b);
    expect(await cache.resolve(ALICE_LID)).to.deep.include({ id: ALICE_LID, phone: ALICE });
    expect(asked).to.deep.equal([ALICE]);
    now += 1_001;
    await cache.resolve(ALICE_LID);
    expect(asked).to.deep.equal([ALICE, ALICE_LID]);
  });

  it('does not keep unknown users and drops the least recently used beyond max', async () => {
    const asked: string[] = [];
    const cache = new ContactCache(
      (id): Promise<ContactInfo> => {
        asked.push(id);
        return Promise.resolve(
          id.startsWith('1999')
            ? { id, isRegistered: false }
            : { id, phone: id, isRegistered: true },
        );
      },
      { max: 2 },
    );
    await cache.resolve('19990000000@c.us');
    await cache.resolve('19990000000@c.us');
    await cache.resolve('15550000001@c.us');
    await cache.resolve('15550000002@c.us');
    await cache.resolve('15550000003@c.us');
    expect(cache.peek('15550000001@c.us')).to.equal(undefined);
    expect(cache.peek('15550000003@c.us')).to.not.equal(undefined);
    expect(asked.filter((id) => id === '19990000000@c.us')).to.have.length(2);
  });

  it('completes senders and delivers in arrival order, even when an earlier look-up is slow', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new ContactCache(async (id) => {
      await gate;
      return { id, lid: ALICE_LID, phone: ALICE, isRegistered: true };
    });
    const errors: unknown[] = [];
    const completer = new SenderCompleter(cache, (error) => errors.push(error));
    const delivered: MessageData[] = [];
    completer.push(message('m1', { id: ALICE_LID, pushname: 'Alice' }), (m, sender) =>
      delivered.push({ ...m, sender }),
    );
    completer.push(message('m2', { id: '120363000000000777@newsletter' }), (m, sender) =>
      delivered.push({ ...m, sender }),
    );
    await Promise.resolve();
    expect(delivered).to.deep.equal([]);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(delivered.map((m) => m.id)).to.deep.equal(['m1', 'm2']);
    expect(delivered[0].sender).to.deep.equal({
      id: ALICE_LID,
      lid: ALICE_LID,
      phone: ALICE,
      pushname: 'Alice',
    });
    // cached now: passes synchronously
    completer.push(message('m3', { id: ALICE_LID }), (m, sender) =>
      delivered.push({ ...m, sender }),
    );
    expect(delivered.map((m) => m.id)).to.deep.equal(['m1', 'm2', 'm3']);
    expect(errors).to.deep.equal([]);
  });

  it('delivers the sender as it came when the look-up fails (even synchronously)', async () => {
    const cache = new ContactCache(() => {
      throw new Error('no engine');
    });
    const errors: unknown[] = [];
    const completer = new SenderCompleter(cache, (error) => errors.push(error));
    const delivered: MessageData[] = [];
    completer.push(message('m1', { id: ALICE }), (m, sender) => delivered.push({ ...m, sender }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(delivered.map((m) => m.sender)).to.deep.equal([{ id: ALICE }]);
    expect(errors).to.have.length(1);
  });

  it('a look-up that never answers holds messages only until the deadline; later ones pass at once; the answer fills the cache later', async () => {
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answer!: (info: ContactInfo) => void;
      const hung = new Promise<ContactInfo>((resolve) => (answer = resolve));
      const asked: string[] = [];
      const cache = new ContactCache((id) => {
        asked.push(id);
        return hung; // a page call that does not answer
      });
      const errors: Array<{ code?: string }> = [];
      const completer = new SenderCompleter(cache, (error) => errors.push(error as never), {
        deadlineMs: 1_000,
      });
      const delivered: MessageData[] = [];
      const push = (id: string, sender: MessageData['sender']): void =>
        completer.push(message(id, sender), (m, s) => delivered.push({ ...m, sender: s }));
      push('m1', { id: ALICE_LID, pushname: 'Alice' });
      push('m2', { id: '120363000000000777@newsletter' });
      await clock.tickAsync(999);
      expect(delivered).to.deep.equal([]);
      await clock.tickAsync(1);
      // the deadline: delivered in order with the sender known so far
      expect(delivered.map((m) => m.id)).to.deep.equal(['m1', 'm2']);
      expect(delivered[0].sender).to.deep.equal({ id: ALICE_LID, pushname: 'Alice' });
      expect(errors.map((e) => e.code)).to.deep.equal(['TIMEOUT']);
      // the look-up is still out: the same person's next message does not wait for it
      push('m3', { id: ALICE_LID });
      expect(delivered.map((m) => m.id)).to.deep.equal(['m1', 'm2', 'm3']);
      expect(asked).to.deep.equal([ALICE_LID]);
      // it answers at last: the cache has it, later messages are completed from it
      answer({ id: ALICE_LID, lid: ALICE_LID, phone: ALICE, isRegistered: true });
      await clock.tickAsync(0);
      push('m4', { id: ALICE_LID });
      expect(delivered.at(-1)?.sender).to.deep.include({ phone: ALICE });
      expect(errors).to.have.length(1);
    } finally {
      clock.restore();
    }
  });
});
