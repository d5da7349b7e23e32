import { expect } from 'chai';
import type sinon from 'sinon';
import { isWakitError } from '../../src/errors/index.js';
import { NO_PACING, Recorder, fakeClock, flush, makeQueue } from './queue-helpers.js';

describe('OutboundQueue priorities, bounds and pause', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = fakeClock();
  });
  afterEach(() => clock.restore());

  it('serves reply before normal before bulk, first in first out within one priority', async () => {
    const queue = makeQueue(NO_PACING);
    const rec = new Recorder();
    queue.pause();
    queue.enqueue(rec.job('b1', 'bulk'));
    queue.enqueue(rec.job('n1'));
    queue.enqueue(rec.job('r1', 'reply'));
    queue.enqueue(rec.job('b2', 'bulk'));
    queue.enqueue(rec.job('r2', 'reply'));
    queue.enqueue(rec.job('n2', 'normal'));
    expect(queue.pendingBy('reply')).to.equal(2);
    expect(queue.pendingBy('bulk')).to.equal(2);
    queue.resume();
    await flush();
    expect(rec.chats).to.deep.equal(['r1', 'r2', 'n1', 'n2', 'b1', 'b2']);
  });

  it('lets a reply that arrives during the gap overtake waiting bulk sends', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const rec = new Recorder();
    queue.enqueue(rec.job('b1', 'bulk'));
    queue.enqueue(rec.job('b2', 'bulk'));
    queue.enqueue(rec.job('b3', 'bulk'));
    await clock.tickAsync(500);
    queue.enqueue(rec.job('r1', 'reply'));
    await clock.tickAsync(5_000);
    expect(rec.chats).to.deep.equal(['b1', 'r1', 'b2', 'b3']);
    expect(rec.times).to.deep.equal([0, 1_000, 2_000, 3_000]);
    queue.close();
  });

  it('throws QUEUE_FULL synchronously with a retry hint, and enqueues nothing', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 1_000, perChatGapMs: 0, maxSize: 2 });
    const rec = new Recorder();
    queue.pause();
    queue.enqueue(rec.job('a'));
    queue.enqueue(rec.job('b'));
    const seen: string[] = [];
    queue.on('update', (r) => seen.push(r.chatId));
    let thrown: unknown;
    try {
      queue.enqueue(rec.job('c'));
    } catch (error) {
      thrown = error;
    }
    expect(isWakitError(thrown, 'QUEUE_FULL')).to.equal(true);
    const details = (thrown as { details: { retryAfterMs: number; maxSize: number } }).details;
    expect(details.maxSize).to.equal(2);
    expect(details.retryAfterMs).to.equal(1_500);
    expect(queue.stats()).to.deep.equal({ pending: 2, held: 0, running: 0 });
    expect(seen).to.deep.equal([]);
    queue.resume();
    await flush();
    // One sent, one waiting for the gap: there is room again.
    expect(queue.stats()).to.deep.equal({ pending: 1, held: 0, running: 0 });
    queue.enqueue(rec.job('c'));
    await clock.tickAsync(5_000);
    expect(rec.chats).to.deep.equal(['a', 'b', 'c']);
    queue.close();
  });

  it('counts the send in flight against maxSize', async () => {
    const queue = makeQueue({ ...NO_PACING, maxSize: 1 });
    const rec = new Recorder();
    queue.enqueue(rec.hanging('a'));
    await flush();
    expect(queue.stats()).to.deep.equal({ pending: 0, held: 0, running: 1 });
    expect(() => queue.enqueue(rec.job('b')))
      .to.throw()
      .with.property('code', 'QUEUE_FULL');
    queue.close();
  });

  it('holds sends while paused and sends them on resume', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const rec = new Recorder();
    queue.pause();
    expect(queue.paused).to.equal(true);
    const { trackingId } = queue.enqueue(rec.job('a'));
    queue.enqueue(rec.job('b'));
    await clock.tickAsync(60_000);
    expect(rec.sends).to.have.length(0);
    expect(queue.get(trackingId)?.status).to.equal('queued');
    queue.resume();
    expect(queue.paused).to.equal(false);
    await flush();
    expect(rec.times).to.deep.equal([60_000]);
    queue.pause();
    await clock.tickAsync(10_000);
    expect(rec.sends).to.have.length(1);
    queue.resume();
    await flush();
    expect(rec.times).to.deep.equal([60_000, 70_000]);
    queue.close();
  });

  it('lets the send in flight finish when paused', async () => {
    const queue = makeQueue(NO_PACING);
    let finish!: (value: { id: string }) => void;
    const { result } = queue.enqueue({
      chatId: 'a',
      kind: 'text',
      run: () => new Promise((resolve) => (finish = resolve)),
    });
    await flush();
    queue.pause();
    finish({ id: 'x' });
    expect(await result).to.deep.equal({ id: 'x' });
  });

  it('rejects an unknown priority', () => {
    const queue = makeQueue(NO_PACING);
    const job = { ...new Recorder().job('a'), priority: 'urgent' as never };
    expect(() => queue.enqueue(job))
      .to.throw()
      .with.property('code', 'VALIDATION_FAILED');
  });
});
