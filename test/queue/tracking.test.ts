import { expect } from 'chai';
import type sinon from 'sinon';
import type { TrackedSend } from '../../src/queue/index.js';
import {
  NO_PACING,
  Recorder,
  T0,
  fakeClock,
  flush,
  makeQueue,
  rejection,
} from './queue-helpers.js';

describe('OutboundQueue tracking', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = fakeClock();
  });
  afterEach(() => clock.restore());

  it('tracks queued → sending → sent → delivered → read → played', async () => {
    const queue = makeQueue(NO_PACING);
    const updates: TrackedSend[] = [];
    queue.on('update', (r) => updates.push(r));
    queue.pause();
    const { trackingId, result } = queue.enqueue(new Recorder().job('123@c.us'));
    expect(trackingId).to.match(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(queue.get(trackingId)).to.deep.equal({
      id: trackingId,
      client: 'alice',
      chatId: '123@c.us',
      kind: 'text',
      status: 'queued',
      attempts: 0,
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
    });
    await clock.tickAsync(2_000);
    queue.resume();
    await result;
    const sent = queue.get(trackingId)!;
    expect(sent).to.include({ status: 'sent', messageId: 'm1', attempts: 1 });
    expect(sent.sentAt).to.equal(new Date(T0 + 2_000).toISOString());
    queue.ackUpdate('m1', 1);
    queue.ackUpdate('m1', 2);
    queue.ackUpdate('m1', 3);
    queue.ackUpdate('m1', 2); // late, out of order: ignored
    queue.ackUpdate('m1', 4);
    queue.ackUpdate('unknown', 3); // not ours: ignored
    expect(updates.map((u) => u.status)).to.deep.equal([
      'queued',
      'sending',
      'sent',
      'sent',
      'delivered',
      'read',
      'played',
    ]);
    expect(queue.get(trackingId)).to.include({ status: 'played', ack: 4 });
    expect(Object.isFrozen(updates[0])).to.equal(true);
  });

  it('marks a sent message failed on ack -1, but not once delivered', async () => {
    const queue = makeQueue(NO_PACING);
    const rec = new Recorder();
    const a = queue.enqueue(rec.job('a'));
    const b = queue.enqueue(rec.job('b'));
    await Promise.all([a.result, b.result]);
    queue.ackUpdate('m1', -1);
    queue.ackUpdate('m2', 2);
    queue.ackUpdate('m2', -1);
    const failed = queue.get(a.trackingId)!;
    expect(failed).to.include({ status: 'failed', ack: -1 });
    expect(failed.error?.code).to.equal('ENGINE_ERROR');
    expect(queue.get(b.trackingId)).to.include({ status: 'delivered', ack: 2 });
    // The caller's promise already resolved: a later failed ack does not change it.
    expect(await a.result).to.deep.equal({ id: 'm1' });
  });

  it('applies an ack that arrives before the send call returned', async () => {
    const queue = makeQueue(NO_PACING);
    let finish!: () => void;
    const { trackingId, result } = queue.enqueue({
      chatId: 'a',
      kind: 'text',
      run: () => new Promise((resolve) => (finish = () => resolve({ id: 'early' }))),
    });
    await flush();
    queue.ackUpdate('early', 2);
    finish();
    await result;
    expect(queue.get(trackingId)).to.include({ status: 'delivered', ack: 2, messageId: 'early' });
  });

  it('evicts finished records beyond trackLimit, oldest first, never pending ones', async () => {
    const queue = makeQueue({ ...NO_PACING, trackLimit: 2 });
    const rec = new Recorder();
    const done = [1, 2, 3].map((n) => queue.enqueue(rec.job(`c${n}`)));
    await Promise.all(done.map((h) => h.result));
    expect(queue.get(done[0].trackingId)).to.equal(undefined);
    expect(queue.get(done[1].trackingId)?.status).to.equal('sent');
    expect(queue.get(done[2].trackingId)?.status).to.equal('sent');
    queue.ackUpdate('m1', 3); // evicted: ignored, no throw
    queue.pause();
    const waiting = [4, 5, 6].map((n) => queue.enqueue(rec.job(`c${n}`)));
    for (const h of waiting) expect(queue.get(h.trackingId)?.status).to.equal('queued');
    expect(queue.get(done[2].trackingId)?.status).to.equal('sent');
    queue.close();
  });

  it('keeps nothing finished with trackLimit 0, but the result still settles', async () => {
    const queue = makeQueue({ ...NO_PACING, trackLimit: 0 });
    const { trackingId, result } = queue.enqueue(new Recorder().job('a'));
    expect(await result).to.deep.equal({ id: 'm1' });
    expect(queue.get(trackingId)).to.equal(undefined);
  });

  it('settles a result first asked for after the send finished', async () => {
    const queue = makeQueue({ ...NO_PACING, retries: 0 });
    const rec = new Recorder();
    const ok = queue.enqueue(rec.job('a'));
    const bad = queue.enqueue(rec.failing('b', ['CHAT_NOT_FOUND']));
    await flush();
    expect(await ok.result).to.deep.equal({ id: 'm1' });
    expect(ok.result).to.equal(ok.result);
    expect((await rejection(bad.result)).code).to.equal('CHAT_NOT_FOUND');
  });

  it('never produces an unhandled rejection when the caller ignores the result', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const queue = makeQueue({ ...NO_PACING, retries: 0 });
      const rec = new Recorder();
      queue.enqueue(rec.failing('a', ['CHAT_NOT_FOUND']));
      void queue.enqueue(rec.failing('b', ['CHAT_NOT_FOUND'])).result; // taken, never handled
      await flush();
      queue.pause();
      void queue.enqueue(rec.job('c')).result;
      queue.close(); // rejects the waiting one with SHUTTING_DOWN
      await flush();
      await flush();
      expect(rec.sends).to.have.length(2);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).to.deep.equal([]);
  });

  it('isolates a throwing update listener', async () => {
    const queue = makeQueue(NO_PACING);
    const seen: string[] = [];
    const bad = (): void => {
      throw new Error('listener bug');
    };
    queue.on('update', bad).on('update', (r) => seen.push(r.status));
    expect(await queue.enqueue(new Recorder().job('a')).result).to.deep.equal({ id: 'm1' });
    expect(seen).to.deep.equal(['queued', 'sending', 'sent']);
    queue.off('update', bad);
    expect(() => queue.on('nope' as 'update', bad))
      .to.throw()
      .with.property('code', 'VALIDATION_FAILED');
  });
});
