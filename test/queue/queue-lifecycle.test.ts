import { expect } from 'chai';
import type sinon from 'sinon';
import { isWakitError } from '../../src/errors/index.js';
import { NO_PACING, Recorder, fakeClock, flush, makeQueue, rejection } from './queue-helpers.js';

describe('OutboundQueue drain and close', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = fakeClock();
  });
  afterEach(() => clock.restore());

  it('drains everything accepted before the deadline and refuses new sends', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const rec = new Recorder();
    for (const chat of ['a', 'b', 'c']) queue.enqueue(rec.job(chat));
    let outcome: unknown;
    void queue.drain(5_000).then((r) => (outcome = r));
    expect(() => queue.enqueue(rec.job('d')))
      .to.throw()
      .with.property('code', 'SHUTTING_DOWN');
    await clock.tickAsync(2_000);
    expect(outcome).to.deep.equal({ drained: true, remaining: 0 });
    expect(rec.chats).to.deep.equal(['a', 'b', 'c']);
    expect(clock.countTimers()).to.equal(0);
  });

  it('reports what is left when the deadline passes', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const rec = new Recorder();
    for (const chat of ['a', 'b', 'c']) queue.enqueue(rec.job(chat));
    let outcome: unknown;
    void queue.drain(1_500).then((r) => (outcome = r));
    await clock.tickAsync(1_500);
    expect(outcome).to.deep.equal({ drained: false, remaining: 1 });
    // Sends already accepted keep going after the deadline until close().
    await clock.tickAsync(500);
    expect(rec.sends).to.have.length(3);
  });

  it('resolves at once when nothing is pending', async () => {
    const queue = makeQueue(NO_PACING);
    expect(await queue.drain(1_000)).to.deep.equal({ drained: true, remaining: 0 });
  });

  it('close rejects waiting sends, aborts the one in flight, clears timers and refuses new sends', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 5_000, retries: 3 });
    const rec = new Recorder();
    const inFlight = queue.enqueue(rec.hanging('a'));
    await flush();
    const waiting = [queue.enqueue(rec.job('b')), queue.enqueue(rec.job('a', 'reply'))];
    const statuses: string[] = [];
    queue.on('update', (r) => statuses.push(`${r.chatId}:${r.status}`));
    let drained: unknown;
    void queue.drain(60_000).then((r) => (drained = r));
    queue.close();
    for (const handle of [inFlight, ...waiting]) {
      expect((await rejection(handle.result)).code).to.equal('SHUTTING_DOWN');
      expect(queue.get(handle.trackingId)).to.include({ status: 'failed' });
    }
    expect(rec.sends[0].signal.aborted).to.equal(true);
    expect(isWakitError(rec.sends[0].signal.reason, 'SHUTTING_DOWN')).to.equal(true);
    await flush();
    expect(drained).to.deep.equal({ drained: true, remaining: 0 });
    expect(queue.stats()).to.deep.equal({ pending: 0, held: 0, running: 0 });
    expect(clock.countTimers()).to.equal(0);
    expect(rec.sends).to.have.length(1); // no retry after close
    expect(statuses).to.have.members(['a:failed', 'b:failed', 'a:failed']);
    expect(() => queue.enqueue(rec.job('c')))
      .to.throw()
      .with.property('code', 'SHUTTING_DOWN');
    queue.close(); // idempotent
    queue.resume(); // no effect after close
    expect(queue.paused).to.equal(false);
  });

  it('close while paused leaves nothing running', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const rec = new Recorder();
    queue.enqueue(rec.job('a'));
    queue.enqueue(rec.job('b'));
    await flush();
    queue.pause();
    queue.close();
    await clock.tickAsync(10_000);
    expect(rec.chats).to.deep.equal(['a']);
    expect(clock.countTimers()).to.equal(0);
  });
});
