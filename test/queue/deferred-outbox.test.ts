import { expect } from 'chai';
import { DeferredOutbox, type OutboxStore } from '../../src/queue/outbox/index.js';
import { MemoryOutbox } from '../../src/queue/outbox/memory-outbox.js';

const entry = (id: string) => ({
  id,
  client: 'a',
  account: null,
  chatId: '15550000002@c.us',
  kind: 'text',
  priority: 'normal' as const,
  content: '{"kind":"text","text":"hi"}',
  createdAt: 1,
});

/** A promise and the functions that settle it. */
function later<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

describe('DeferredOutbox: an outbox that is made later (the fleet, loaded on demand)', () => {
  it('waits for the outbox: calls made before it is there resolve once it is, updates in order', async () => {
    const store = later<OutboxStore>();
    const outbox = new DeferredOutbox('redis', store.promise);
    expect(outbox.kind).to.equal('redis');
    const appended = outbox.append(entry('t1'));
    outbox.update('t1', { status: 'sending', attempts: 1, updatedAt: 2 });
    outbox.update('t1', { status: 'sent', attempts: 1, updatedAt: 3, messageId: 'm1' });
    const counted = outbox.countOpen('a');
    let settled = false;
    void appended.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled, 'nothing settles before the outbox is there').to.equal(false);
    store.resolve(new MemoryOutbox());
    await appended;
    // counted after both updates: the send is finished, in the order the calls were made
    expect(await counted).to.deep.equal({ reply: 0, normal: 0, bulk: 0 });
    await outbox.committed();
    const record = await outbox.get('t1');
    expect(record?.status).to.equal('sent');
    expect(record?.messageId).to.equal('m1');
    await outbox.close();
  });

  it('a load that failed rejects every call with its error; close() still resolves', async () => {
    const store = later<OutboxStore>();
    const outbox = new DeferredOutbox('redis', store.promise);
    const failure = new Error('src/cluster could not be loaded');
    store.reject(failure);
    try {
      await outbox.get('t1');
      expect.fail('get resolved');
    } catch (error) {
      expect(error).to.equal(failure);
    }
    await outbox.close();
  });
});
