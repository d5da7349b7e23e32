import { expect } from 'chai';
import type sinon from 'sinon';
import { isWakitError } from '../../src/errors/index.js';
import { NO_PACING, Recorder, fakeClock, flush, makeQueue, rejection } from './queue-helpers.js';

describe('OutboundQueue retries and timeouts', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = fakeClock();
  });
  afterEach(() => clock.restore());

  it('retries transient errors with exponential backoff and full jitter, then succeeds', async () => {
    // random 0.5: half of each ceiling (2 s, then 4 s)
    const queue = makeQueue({ ...NO_PACING, retries: 2, retryBackoffMs: 2_000 }, () => 0.5);
    const rec = new Recorder();
    const statuses: string[] = [];
    queue.on('update', (r) => statuses.push(r.status));
    const { trackingId, result } = queue.enqueue(
      rec.failing('a', ['ENGINE_ERROR', 'SEND_TIMEOUT']),
    );
    await clock.tickAsync(10_000);
    expect(rec.times).to.deep.equal([0, 1_000, 3_000]);
    expect(await result).to.deep.equal({ id: 'm3' });
    expect(queue.get(trackingId)).to.include({ status: 'sent', attempts: 3, messageId: 'm3' });
    expect(statuses).to.deep.equal([
      'queued',
      'sending',
      'queued',
      'sending',
      'queued',
      'sending',
      'sent',
    ]);
  });

  it('treats errors that are not WakitErrors as ENGINE_ERROR (transient)', async () => {
    const queue = makeQueue({ ...NO_PACING, retries: 1, retryBackoffMs: 100 });
    const rec = new Recorder();
    const { result } = queue.enqueue(rec.failing('a', ['plain', 'plain']));
    await clock.tickAsync(1_000);
    const error = await rejection(result);
    expect(error.code).to.equal('ENGINE_ERROR');
    expect(error.message).to.equal('socket hang up');
    expect(rec.sends).to.have.length(2);
  });

  for (const code of ['CHAT_NOT_FOUND', 'PERMISSION_DENIED', 'INVALID_CHAT_ID'] as const) {
    it(`does not retry ${code}`, async () => {
      const queue = makeQueue({ ...NO_PACING, retries: 3, retryBackoffMs: 10 });
      const rec = new Recorder();
      const { trackingId, result } = queue.enqueue(rec.failing('a', [code]));
      const error = await rejection(result);
      expect(error.code).to.equal(code);
      expect(rec.sends).to.have.length(1);
      const record = queue.get(trackingId)!;
      expect(record).to.include({ status: 'failed', attempts: 1 });
      expect(record.error).to.deep.equal({ code, message: `failed with ${code}` });
    });
  }

  it('gives up after `retries` extra attempts', async () => {
    const queue = makeQueue({ ...NO_PACING, retries: 1, retryBackoffMs: 1_000 }, () => 0.999_999);
    const rec = new Recorder();
    const { result } = queue.enqueue(
      rec.failing('a', ['ENGINE_ERROR', 'ENGINE_ERROR', 'ENGINE_ERROR']),
    );
    await clock.tickAsync(60_000);
    expect((await rejection(result)).code).to.equal('ENGINE_ERROR');
    expect(rec.times).to.deep.equal([0, 1_000]);
  });

  it('serves other sends while one waits for its retry backoff', async () => {
    const queue = makeQueue({ ...NO_PACING, retries: 1, retryBackoffMs: 5_000 }, () => 0.999_999);
    const rec = new Recorder();
    queue.enqueue(rec.failing('a', ['ENGINE_ERROR']));
    queue.enqueue(rec.job('b'));
    await clock.tickAsync(1_000);
    expect(rec.chats).to.deep.equal(['a', 'b']);
    await clock.tickAsync(4_000);
    expect(rec.sends.map((s) => [s.chatId, s.at])).to.deep.equal([
      ['a', 0],
      ['b', 0],
      ['a', 5_000],
    ]);
  });

  it('fails a send that takes longer than sendTimeoutMs with SEND_TIMEOUT and aborts its signal', async () => {
    const queue = makeQueue({ ...NO_PACING, sendTimeoutMs: 5_000, retries: 0 });
    const rec = new Recorder();
    const { trackingId, result } = queue.enqueue(rec.hanging('a'));
    const next = queue.enqueue(rec.job('b')).result;
    await clock.tickAsync(4_999);
    expect(rec.sends[0].signal.aborted).to.equal(false);
    expect(queue.get(trackingId)?.status).to.equal('sending');
    await clock.tickAsync(1);
    const error = await rejection(result);
    expect(error.code).to.equal('SEND_TIMEOUT');
    expect(rec.sends[0].signal.aborted).to.equal(true);
    expect(isWakitError(rec.sends[0].signal.reason, 'SEND_TIMEOUT')).to.equal(true);
    expect(await next).to.deep.equal({ id: 'm2' });
    expect(queue.get(trackingId)?.error?.code).to.equal('SEND_TIMEOUT');
  });

  it('retries a timed-out send when retries allow it', async () => {
    const queue = makeQueue({
      ...NO_PACING,
      sendTimeoutMs: 1_000,
      retries: 1,
      retryBackoffMs: 500,
    });
    let calls = 0;
    const { result } = queue.enqueue({
      chatId: 'a',
      kind: 'text',
      run: () => (++calls === 1 ? new Promise(() => {}) : Promise.resolve({ id: 'late' })),
    });
    await clock.tickAsync(1_500);
    expect(await result).to.deep.equal({ id: 'late' });
    expect(calls).to.equal(2);
  });

  it('fails with ENGINE_ERROR when the engine returns no message id, and on a synchronous throw', async () => {
    const queue = makeQueue({ ...NO_PACING, retries: 0 });
    const empty = queue.enqueue({
      chatId: 'a',
      kind: 'text',
      run: () => Promise.resolve({} as { id: string }),
    });
    const sync = queue.enqueue({
      chatId: 'b',
      kind: 'text',
      run: () => {
        throw new TypeError('boom');
      },
    });
    expect((await rejection(empty.result)).code).to.equal('ENGINE_ERROR');
    const error = await rejection(sync.result);
    expect(error.code).to.equal('ENGINE_ERROR');
    expect(error.cause).to.be.instanceOf(TypeError);
    await flush();
    expect(queue.stats()).to.deep.equal({ pending: 0, held: 0, running: 0 });
  });
});
