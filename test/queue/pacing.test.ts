import { expect } from 'chai';
import sinon from 'sinon';
import { NO_PACING, Recorder, fakeClock, flush, makeQueue } from './queue-helpers.js';

describe('OutboundQueue pacing', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = fakeClock();
  });
  afterEach(() => clock.restore());

  it('sends one at a time, at least minGapMs apart', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const rec = new Recorder();
    for (const chat of ['a', 'b', 'c']) queue.enqueue(rec.job(`${chat}@c.us`));
    await flush();
    expect(rec.times).to.deep.equal([0]);
    await clock.tickAsync(999);
    expect(rec.times).to.deep.equal([0]);
    await clock.tickAsync(1);
    expect(rec.times).to.deep.equal([0, 1_000]);
    await clock.tickAsync(1_000);
    expect(rec.times).to.deep.equal([0, 1_000, 2_000]);
    queue.close();
  });

  it('measures the gap from the end of the previous send', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const times: number[] = [];
    const slow = (chatId: string) => ({
      chatId,
      kind: 'text',
      run: async () => {
        times.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 500));
        return { id: `x${times.length}` };
      },
    });
    queue.enqueue(slow('a@c.us'));
    queue.enqueue(slow('b@c.us'));
    await clock.tickAsync(1_499);
    expect(times).to.have.length(1);
    await clock.tickAsync(1);
    expect(times.map((t) => t - times[0])).to.deep.equal([0, 1_500]);
    queue.close();
  });

  it('adds a uniform jitter in [0, jitterMs] drawn from the injected random source', async () => {
    const draws = [0, 0.5, 0.9999999];
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 1_500, perChatGapMs: 0 }, () =>
      draws.shift()!,
    );
    const rec = new Recorder();
    for (const chat of ['a', 'b', 'c', 'd']) queue.enqueue(rec.job(`${chat}@c.us`));
    await clock.tickAsync(10_000);
    const gaps = rec.times.slice(1).map((t, i) => t - rec.times[i]);
    expect(gaps).to.deep.equal([1_000, 1_000 + 750, 1_000 + 1_500]);
    queue.close();
  });

  it('keeps jitter within bounds even if the random source misbehaves', async () => {
    const draws = [1, -3, 7];
    const queue = makeQueue({ minGapMs: 100, jitterMs: 50, perChatGapMs: 0 }, () => draws.shift()!);
    const rec = new Recorder();
    for (const chat of ['a', 'b', 'c', 'd']) queue.enqueue(rec.job(`${chat}@c.us`));
    await clock.tickAsync(1_000);
    const gaps = rec.times.slice(1).map((t, i) => t - rec.times[i]);
    expect(gaps).to.deep.equal([150, 100, 150]);
    queue.close();
  });

  it('spaces sends to one chat by perChatGapMs while serving other chats within the global gap', async () => {
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 3_000 });
    const rec = new Recorder();
    queue.enqueue(rec.job('a@c.us'));
    queue.enqueue(rec.job('a@c.us'));
    queue.enqueue(rec.job('b@c.us'));
    await clock.tickAsync(10_000);
    expect(rec.sends.map((s) => [s.chatId, s.at])).to.deep.equal([
      ['a@c.us', 0],
      ['b@c.us', 1_000],
      ['a@c.us', 3_000],
    ]);
    queue.close();
  });

  it('waits for the per-chat gap when only that chat has sends, then wakes for a new chat', async () => {
    const queue = makeQueue({ minGapMs: 500, jitterMs: 0, perChatGapMs: 3_000 });
    const rec = new Recorder();
    queue.enqueue(rec.job('a@c.us'));
    queue.enqueue(rec.job('a@c.us'));
    await clock.tickAsync(1_000);
    expect(rec.times).to.deep.equal([0]);
    queue.enqueue(rec.job('b@c.us'));
    await flush();
    expect(rec.chats).to.deep.equal(['a@c.us', 'b@c.us']);
    await clock.tickAsync(5_000);
    expect(rec.sends.map((s) => [s.chatId, s.at])).to.deep.equal([
      ['a@c.us', 0],
      ['b@c.us', 1_000],
      ['a@c.us', 3_000],
    ]);
    queue.close();
  });

  it('uses no timer at all when pacing is disabled', async () => {
    const queue = makeQueue(NO_PACING);
    const rec = new Recorder();
    const results = ['a', 'a', 'b', 'a'].map(
      (chat) => queue.enqueue(rec.job(`${chat}@c.us`)).result,
    );
    expect(await Promise.all(results)).to.deep.equal([
      { id: 'm1' },
      { id: 'm2' },
      { id: 'm3' },
      { id: 'm4' },
    ]);
    expect(clock.countTimers()).to.equal(0);
    expect(rec.times).to.deep.equal([0, 0, 0, 0]);
  });

  it('works with sinon default fake timers (queueMicrotask faked too)', async () => {
    clock.restore();
    clock = sinon.useFakeTimers({ now: 0 });
    const queue = makeQueue({ minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0 });
    const sent: number[] = [];
    const job = (chatId: string) => ({
      chatId,
      kind: 'text',
      run: () => {
        sent.push(Date.now());
        return Promise.resolve({ id: chatId });
      },
    });
    const results = ['a', 'b', 'c'].map((c) => queue.enqueue(job(c)).result);
    await clock.tickAsync(2_000);
    expect(sent).to.deep.equal([0, 1_000, 2_000]);
    expect((await Promise.all(results)).map((r) => r.id)).to.deep.equal(['a', 'b', 'c']);
  });
});
