/**
 * Scheduled sends across a SIGKILL (docs/scheduling.md): 200 sends accepted over REST with `sendAt`
 * spread over the next ~8–28 s, one of them cancelled; the server is SIGKILLed while they go out
 * and restarted on the same data path. Counted from what the simulated recipient got (written
 * synchronously by the child as each message arrives): each sent once, none before its `sendAt`,
 * each within its window, the cancelled one never.
 */
import { expect } from 'chai';
import {
  CONTACT_ID,
  FaultDir,
  duplicates,
  eventually,
  killAll,
  startServer,
} from './child-server.js';

const COUNT = 200;
const FIRST_MS = 8_000;
const STEP_MS = 100;
/** Late by at most the queue's pacing (20 ms a send here) plus the scheduler's wake-up: 1 s. */
const LATE_MS = 1_000;
const QUEUE = {
  minGapMs: 20,
  jitterMs: 0,
  perChatGapMs: 0,
  schedule: { maxAheadMs: 120_000, pastToleranceMs: 1_000 },
};

describe('faults: 200 scheduled sends, SIGKILL and restart in between (child processes)', function () {
  this.timeout(180_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('each sent once, none before its sendAt, each within its window; a cancelled one never goes', async () => {
    const first = await startServer(dir, { queue: QUEUE });
    const t0 = Date.now();
    const sendAt = new Map<string, number>();
    for (let n = 0; n < COUNT; n++) {
      const body = `sched-${String(n).padStart(3, '0')}`;
      const at = t0 + FIRST_MS + n * STEP_MS;
      const res = await first.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT_ID, content: body, sendAt: new Date(at).toISOString() },
      });
      expect(res.status, body).to.equal(202);
      expect(res.json).to.include({ status: 'scheduled', sendAt: new Date(at).toISOString() });
      sendAt.set(body, at);
      if (n === 150) {
        const id = (res.json as { id: string }).id;
        const cancelled = await first.request('POST', `/api/v1/messages/${id}/cancel`);
        expect(cancelled.status).to.equal(200);
        expect(cancelled.json).to.include({ status: 'cancelled' });
      }
    }
    const listed = await first.request('GET', '/api/v1/messages?status=scheduled&limit=500');
    expect((listed.json as { items: unknown[] }).items).to.have.length(COUNT - 1);
    expect(dir.received(), 'accepted within the first 8 s: nothing went yet').to.have.length(0);

    await first.waitFor('50 out', (l) => l.event === 'received' && Number(l.count) >= 50, 60_000);
    const killedAt = Date.now();
    expect((await first.kill('SIGKILL')).signal).to.equal('SIGKILL');
    const beforeKill = dir.received().length;

    const second = await startServer(dir, { queue: QUEUE });
    const readyAt = Date.now();
    const all = await eventually(
      () => new Set(dir.received().map((r) => r.body)).size >= COUNT - 1,
    );
    expect(all, 'every scheduled send arrived').to.equal(true);
    // the cancelled one was due at FIRST_MS + 15 s: wait past it and past the last one
    await eventually(() => Date.now() > t0 + FIRST_MS + COUNT * STEP_MS + 2_000, 60_000);

    const received = dir.received();
    const twice = duplicates(received);
    const early = received.filter((r) => r.at < sendAt.get(r.body)!);
    const late = received.filter((r) => {
      const due = sendAt.get(r.body)!;
      // due while no process ran: it goes right after the restart
      const window = due >= killedAt - LATE_MS && due <= readyAt ? readyAt - due + 5_000 : LATE_MS;
      return r.at - due > window;
    });
    expect(
      received.some((r) => r.body === 'sched-150'),
      'the cancelled send',
    ).to.equal(false);
    expect(early.map((r) => r.body)).to.deep.equal([]);
    expect(late.map((r) => `${r.body} +${r.at - sendAt.get(r.body)!} ms`)).to.deep.equal([]);
    // a kill between WhatsApp taking a message and its `sent` journaled repeats that one (docs/queue.md)
    expect(twice.size).to.be.at.most(1);
    expect(new Set(received.map((r) => r.body)).size).to.equal(COUNT - 1);
    const lateness = received.map((r) => r.at - sendAt.get(r.body)!).sort((a, b) => a - b);
    console.log(
      `      scheduled ${COUNT}, cancelled 1, out before the kill ${beforeKill}, ` +
        `down ${readyAt - killedAt} ms, received ${received.length} (distinct ${new Set(received.map((r) => r.body)).size}), ` +
        `duplicates ${twice.size}, early ${early.length}, lateness median ${lateness[lateness.length >> 1]} ms, max ${lateness.at(-1)} ms`,
    );
    await second.kill('SIGTERM');
  });
});
