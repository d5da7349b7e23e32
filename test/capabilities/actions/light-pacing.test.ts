/**
 * The queue's light pacing of reactions and presence (docs/queue.md): they skip minGapMs, the
 * jitter and the per-chat gap, waiting only lightGapMs; edits and deletes are paced as messages.
 */
import { expect } from 'chai';
import type sinon from 'sinon';
import type { QueueJob } from '../../../src/queue/index.js';
import { T0, fakeClock, flush, makeQueue } from '../../queue/queue-helpers.js';

class Log {
  readonly sends: { name: string; at: number }[] = [];
  job(name: string, chatId: string, action?: 'light' | 'paced'): QueueJob {
    return {
      chatId,
      kind: action === 'light' ? 'reaction' : action === 'paced' ? 'edit' : 'text',
      ...(action ? { action } : {}),
      run: () => {
        this.sends.push({ name, at: Date.now() - T0 });
        return Promise.resolve({ id: action === 'light' ? '' : `id-${name}` });
      },
    };
  }
  get order(): string[] {
    return this.sends.map((s) => `${s.name}@${s.at}`);
  }
}

describe('outbound queue: light pacing of reactions and presence', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = fakeClock();
  });
  afterEach(() => clock.restore());

  const paced = { minGapMs: 1_000, jitterMs: 0, perChatGapMs: 3_000, lightGapMs: 200 };

  it('a reaction goes lightGapMs after a message, not minGapMs; messages keep their gaps', async () => {
    const queue = makeQueue(paced);
    const log = new Log();
    queue.enqueue(log.job('m1', 'a@c.us'));
    queue.enqueue(log.job('m2', 'a@c.us'));
    queue.enqueue(log.job('r1', 'a@c.us', 'light'));
    queue.enqueue(log.job('r2', 'a@c.us', 'light'));
    await flush();
    await clock.tickAsync(5_000);
    // r1 and r2 skip the chat's 3 s gap and the 1 s gap, 200 ms apart; m2 waits for a@c.us.
    expect(log.order).to.deep.equal(['m1@0', 'r1@200', 'r2@400', 'm2@3000']);
    queue.close();
  });

  it('edits and deletes are paced like messages (global and per-chat gaps)', async () => {
    const queue = makeQueue(paced);
    const log = new Log();
    queue.enqueue(log.job('m1', 'a@c.us'));
    queue.enqueue(log.job('e1', 'a@c.us', 'paced'));
    queue.enqueue(log.job('e2', 'b@c.us', 'paced'));
    await flush();
    await clock.tickAsync(5_000);
    expect(log.order).to.deep.equal(['m1@0', 'e2@1000', 'e1@3000']);
    queue.close();
  });

  it('a message after a reaction still waits its own gap from the last message', async () => {
    const queue = makeQueue({ ...paced, perChatGapMs: 0 });
    const log = new Log();
    queue.enqueue(log.job('m1', 'a@c.us'));
    queue.enqueue(log.job('r1', 'b@c.us', 'light'));
    queue.enqueue(log.job('m2', 'c@c.us'));
    await flush();
    await clock.tickAsync(3_000);
    expect(log.order).to.deep.equal(['m1@0', 'r1@200', 'm2@1000']);
    queue.close();
  });

  it('the light gap is never longer than the message gap: no pacing means none at all', async () => {
    const queue = makeQueue({ minGapMs: 0, jitterMs: 0, perChatGapMs: 0, lightGapMs: 250 });
    const log = new Log();
    for (const name of ['r1', 'r2', 'r3']) queue.enqueue(log.job(name, 'a@c.us', 'light'));
    await flush();
    await clock.tickAsync(0);
    expect(log.order).to.deep.equal(['r1@0', 'r2@0', 'r3@0']);
    queue.close();
  });

  it("an action's id (the message acted on) does not take over that message's acks", async () => {
    const queue = makeQueue({ minGapMs: 0, jitterMs: 0, perChatGapMs: 0 });
    const message = queue.enqueue({
      chatId: 'a@c.us',
      kind: 'text',
      run: () => Promise.resolve({ id: 'wa-1' }),
    });
    await message.result;
    const reaction = queue.enqueue({
      chatId: 'a@c.us',
      kind: 'reaction',
      action: 'light',
      run: () => Promise.resolve({ id: 'wa-1' }),
    });
    expect(await reaction.result).to.deep.equal({ id: 'wa-1' });
    queue.ackUpdate('wa-1', 3);
    expect(queue.get(message.trackingId)?.status).to.equal('read');
    expect(queue.get(reaction.trackingId)).to.include({ status: 'sent', messageId: 'wa-1' });
    queue.close();
  });
});
