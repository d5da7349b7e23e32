import { expect } from 'chai';
import type sinon from 'sinon';
import { WakitError } from '../../src/errors/index.js';
import type {
  BacklogSource,
  OutboundQueue,
  PagedJob,
  SendPriority,
  TrackedSend,
} from '../../src/queue/index.js';
import { NO_PACING, T0, fakeClock, flush, makeQueue, rejection } from './queue-helpers.js';

/** A backlog like the outbox: every accepted job is stored; it records the pages asked for. */
class FakeBacklog implements BacklogSource {
  readonly rows: (PagedJob & { open: boolean })[] = [];
  readonly pages: { priority: SendPriority; after: number; limit: number }[] = [];
  readonly sent: string[] = [];

  /** Stores a job (as an accept journals it) and returns it, to enqueue. */
  job(name: string, priority: SendPriority): PagedJob {
    const row = {
      id: name,
      seq: this.rows.length + 1,
      createdAt: T0,
      chatId: `${name}@c.us`,
      kind: 'text',
      priority,
      open: true,
      run: () => {
        this.sent.push(name);
        row.open = false;
        return Promise.resolve({ id: `wa-${name}` });
      },
    };
    this.rows.push(row);
    return row;
  }

  load(priority: SendPriority, after: number, limit: number): Promise<PagedJob[]> {
    this.pages.push({ priority, after, limit });
    const page = this.rows.filter((r) => r.open && r.priority === priority && r.seq > after);
    return Promise.resolve(page.slice(0, limit));
  }

  fail(
    priority: SendPriority,
    after: number,
    error: WakitError,
    now: number,
    except: readonly string[],
  ): Promise<TrackedSend[]> {
    const failed = this.rows.filter(
      (r) => r.open && r.priority === priority && r.seq > after && !except.includes(r.id),
    );
    for (const row of failed) row.open = false;
    return Promise.resolve(
      failed.map((r) => ({
        id: r.id,
        client: 'alice',
        chatId: r.chatId,
        kind: r.kind,
        status: 'failed' as const,
        attempts: 0,
        error: { code: error.code, message: error.message },
        createdAt: new Date(r.createdAt).toISOString(),
        updatedAt: new Date(now).toISOString(),
      })),
    );
  }
}

function pagedQueue(window: number, pacing: object = NO_PACING) {
  const queue = makeQueue({ ...pacing, memoryWindow: window });
  const backlog = new FakeBacklog();
  queue.pageTo(backlog);
  const accept = (name: string, priority: SendPriority = 'bulk') =>
    queue.enqueue(backlog.job(name, priority));
  return { queue, backlog, accept };
}

async function settle(queue: OutboundQueue): Promise<void> {
  for (let i = 0; i < 50 && queue.stats().pending + queue.stats().running > 0; i++) await flush();
}

describe('OutboundQueue memory window (waiting sends paged out to the backlog)', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = fakeClock();
  });
  afterEach(() => clock.restore());

  it('holds at most the window of each priority in memory and pages the rest in, in order', async () => {
    const { queue, backlog, accept } = pagedQueue(2);
    queue.pause();
    for (const n of [1, 2, 3, 4, 5, 6]) accept(`b${n}`);
    for (const n of [1, 2, 3]) accept(`n${n}`, 'normal');
    accept('r1', 'reply');
    expect(['b1', 'b2', 'n1', 'n2', 'r1'].map((id) => queue.get(id)?.status)).to.deep.equal(
      Array(5).fill('queued'),
    );
    for (const id of ['b3', 'b4', 'b5', 'b6', 'n3']) expect(queue.get(id)).to.equal(undefined);
    expect(queue.stats()).to.deep.equal({ pending: 10, held: 0, running: 0 });
    expect([queue.pendingBy('bulk'), queue.pendingBy('normal')]).to.deep.equal([6, 3]);
    queue.resume();
    await settle(queue);
    expect(backlog.sent).to.deep.equal([
      'r1',
      'n1',
      'n2',
      'n3',
      'b1',
      'b2',
      'b3',
      'b4',
      'b5',
      'b6',
    ]);
    expect(backlog.pages.every((p) => p.limit <= 2)).to.equal(true);
    expect(backlog.pages.filter((p) => p.priority === 'reply')).to.deep.equal([]);
    expect(queue.stats()).to.deep.equal({ pending: 0, held: 0, running: 0 });
  });

  it('a reply accepted later goes before paged-out bulk sends, with the pacing', async () => {
    const { queue, backlog, accept } = pagedQueue(2, { minGapMs: 1_000, jitterMs: 0 });
    const at: number[] = [];
    queue.on('update', (r) => {
      if (r.status === 'sent') at.push(Date.now() - T0);
    });
    for (const n of [1, 2, 3, 4, 5]) accept(`b${n}`);
    await clock.tickAsync(500);
    expect(queue.get('b5')).to.equal(undefined);
    accept('r1', 'reply');
    await clock.tickAsync(10_000);
    expect(backlog.sent).to.deep.equal(['b1', 'r1', 'b2', 'b3', 'b4', 'b5']);
    expect(at).to.deep.equal([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
  });

  it('a result handed out while paged out settles once the send is loaded and made', async () => {
    const { queue, accept } = pagedQueue(1);
    queue.pause();
    accept('b1');
    const paged = accept('b2');
    expect(queue.get('b2')).to.equal(undefined);
    const result = paged.result;
    queue.resume();
    expect(await result).to.deep.equal({ id: 'wa-b2' });
    expect(queue.get('b2')?.status).to.equal('sent');
  });

  it('failWaiting fails the paged-out sends in the backlog too: results reject, listeners hear', async () => {
    const { queue, backlog, accept } = pagedQueue(1, { minGapMs: 600_000, jitterMs: 0 });
    const failed: string[] = [];
    queue.on('update', (r) => {
      if (r.status === 'failed') failed.push(`${r.id}:${r.error?.code}`);
    });
    for (const n of [1, 2, 3, 4]) accept(`b${n}`); // b1 goes, b2 waits in memory, b3 b4 paged out
    await flush();
    const b5 = accept('b5').result; // paged out too
    expect(queue.stats().pending).to.equal(4);
    const error = new WakitError('SESSION_EXPIRED', 'the session ended');
    expect(queue.failWaiting(error)).to.equal(4);
    expect(queue.stats().pending).to.equal(0);
    expect((await rejection(b5)).code).to.equal('SESSION_EXPIRED');
    expect(failed.sort()).to.deep.equal(
      ['b2', 'b3', 'b4', 'b5'].map((id) => `${id}:SESSION_EXPIRED`),
    );
    // failed in the backlog (b2, failed in memory, is journaled by the queue's onChange)
    expect(backlog.rows.filter((r) => r.open).map((r) => r.id)).to.deep.equal(['b2']);
    await clock.tickAsync(1_200_000);
    expect(backlog.sent).to.deep.equal(['b1']);
  });

  it('restore: what an earlier process left is loaded page by page, never twice', async () => {
    const { queue, backlog, accept } = pagedQueue(2);
    for (const n of [1, 2, 3]) backlog.job(`old${n}`, 'bulk');
    backlog.job('oldReply', 'reply');
    queue.pause();
    accept('fresh'); // accepted by this process before it was READY: held in memory
    expect(queue.restore({ bulk: 4, normal: 0, reply: 1 })).to.equal(4);
    expect(queue.stats().pending).to.equal(5);
    accept('later'); // behind the recovered ones of its priority
    queue.resume();
    await settle(queue);
    expect(backlog.sent).to.deep.equal(['oldReply', 'fresh', 'old1', 'old2', 'old3', 'later']);
  });

  it('restore while a page is loading: the dropped page is asked for again, nothing is stranded', async () => {
    const { queue, backlog } = pagedQueue(4);
    for (const n of [1, 2, 3]) backlog.job(`remote${n}`, 'bulk');
    const load = backlog.load.bind(backlog);
    let release: (() => void) | undefined;
    backlog.load = (priority, after, limit) =>
      release === undefined
        ? new Promise((resolve) => {
            release = () => void load(priority, after, limit).then(resolve);
          })
        : load(priority, after, limit);
    expect(queue.restore({ bulk: 3, normal: 0, reply: 0 })).to.equal(3);
    await flush();
    expect(release, 'a page is being loaded').to.be.a('function');
    // more sends appended elsewhere: the counts are given again while that page loads
    backlog.job('remote4', 'bulk');
    queue.restore({ bulk: 4, normal: 0, reply: 0 });
    release!();
    await settle(queue);
    await clock.tickAsync(2_000);
    await settle(queue);
    expect(backlog.sent).to.deep.equal(['remote1', 'remote2', 'remote3', 'remote4']);
  });

  it('handOff: waiting sends are forgotten (not failed), the one in flight is not retried here', async () => {
    const { queue, backlog } = pagedQueue(4);
    let failInFlight: ((error: WakitError) => void) | undefined;
    const first = backlog.job('first', 'bulk');
    let runs = 0;
    first.run = () => {
      runs++;
      return new Promise((_, reject) => (failInFlight = reject));
    };
    const inFlight = queue.enqueue(first);
    const waiting = queue.enqueue(backlog.job('second', 'bulk'));
    await flush();
    expect(queue.get('first')?.status).to.equal('sending');
    const moved = new WakitError('CLIENT_UNAVAILABLE', 'runs elsewhere now');
    expect(queue.handOff(moved)).to.equal(1);
    expect((await rejection(waiting.result)).code).to.equal('CLIENT_UNAVAILABLE');
    // The engine call fails with a transient error after the hand-off: no retry from this node.
    failInFlight!(new WakitError('CONNECTION_LOST', 'gone'));
    expect((await rejection(inFlight.result)).code).to.equal('CLIENT_UNAVAILABLE');
    await clock.tickAsync(60_000);
    expect(runs).to.equal(1);
    expect(queue.stats()).to.deep.equal({ pending: 0, held: 0, running: 0 });
    expect(queue.get('first'), 'forgotten, not failed').to.equal(undefined);
    expect(backlog.sent).to.deep.equal([]);
  });

  it('close rejects results handed out for paged-out sends with SHUTTING_DOWN; they stay stored', async () => {
    const { queue, backlog, accept } = pagedQueue(1);
    queue.pause();
    accept('b1');
    const paged = accept('b2').result;
    queue.close();
    expect((await rejection(paged)).code).to.equal('SHUTTING_DOWN');
    expect(backlog.rows.filter((r) => r.open).map((r) => r.id)).to.deep.equal(['b1', 'b2']);
  });
});
