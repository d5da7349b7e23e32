import { expect } from 'chai';
import Database from 'better-sqlite3';
import {
  FaultDir,
  eventually,
  killAll,
  startServer,
  type ChildServer,
} from '../faults/child-server.js';

const BULK = 500;
const PHONES = Array.from({ length: 300 }, (_, n) => `1555200${String(n).padStart(4, '0')}`);

interface Info {
  governor: { deferred: number; used: { perDay: number; newContactsPerDay: number } } | null;
}

async function governorOf(server: ChildServer): Promise<Info['governor']> {
  const res = await server.request('GET', '/api/v1/client/info');
  return (res.json as Info).governor;
}

/** What the outbox holds (read straight from the file): statuses, and each waiting send's due time. */
function onDisk(dir: FaultDir) {
  const outbox = new Database(dir.outbox, { readonly: true });
  const rows = outbox.prepare('SELECT id, status, due_at, due_budget FROM sends').all() as {
    id: string;
    status: string;
    due_at: number | null;
    due_budget: string | null;
  }[];
  outbox.close();
  const queued = rows.filter((r) => r.status === 'queued');
  return {
    queued: queued.length,
    sent: rows.filter((r) => ['sent', 'delivered', 'read'].includes(r.status)).length,
    /** tracking id → due time (ms), for the waiting sends that have one */
    due: new Map(queued.filter((r) => r.due_at !== null).map((r) => [r.id, r.due_at!])),
    budgets: new Set(queued.map((r) => r.due_budget)),
  };
}

describe('governor: nothing accepted is lost across a SIGKILL while sends are deferred (child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it(`${BULK} bulk sends to ${PHONES.length} new contacts under standard on a day-1 number: SIGKILL, the outbox rows keep every waiting send and its due time, a restart defers each until the same due time, and with the governor off all ${BULK} arrive once`, async () => {
    const governor = { preset: 'standard' } as const;
    const first = await startServer(dir, { phones: PHONES, governor, queue: { minGapMs: 0 } });
    for (let n = 0; n < BULK; n++) {
      first.command({
        cmd: 'enqueue',
        to: PHONES[n % PHONES.length],
        text: `bulk-${n}`,
        priority: 'bulk',
      });
    }
    await first.waitFor(
      'all accepted',
      () => first.lines.filter((l) => l.event === 'accepted').length === BULK,
    );
    // Day 1 of standard: 10 new contacts a day, so 10 first messages and the 10 second ones to them.
    expect(
      await eventually(async () => (await governorOf(first))?.deferred === BULK - 20),
    ).to.equal(true);
    const before = dir.received().length;
    expect(before).to.equal(20);
    const killedAt = Date.now();
    expect((await first.kill('SIGKILL')).signal).to.equal('SIGKILL');

    const disk = onDisk(dir);
    expect(disk.sent).to.equal(20);
    expect(disk.queued, 'every waiting send is still in the outbox').to.equal(BULK - 20);
    expect(disk.due.size, 'each with its due time, in its own row').to.equal(BULK - 20);
    expect(Math.min(...disk.due.values())).to.be.greaterThan(killedAt);
    expect([...disk.budgets]).to.have.members(['newContactsPerDay']);

    // A restart under standard: every one is deferred again until the same due time (the queue
    // takes it from the outbox row, the governor is not asked before), and nothing more goes.
    const second = await startServer(dir, { phones: PHONES, governor, queue: { minGapMs: 0 } });
    expect(
      await eventually(async () => (await governorOf(second))?.deferred === BULK - 20),
    ).to.equal(true);
    const info = await governorOf(second);
    expect(info?.used).to.include({ perDay: 20, newContactsPerDay: 10 });
    const sample = [...disk.due.keys()].filter((_, n) => n % 40 === 0);
    for (const id of sample) {
      const res = await second.request('GET', `/api/v1/messages/${id}`);
      const record = res.json as { status: string; dueAt?: string; budget?: string };
      expect(record.status).to.equal('deferred');
      expect(record.dueAt).to.equal(new Date(disk.due.get(id)!).toISOString());
    }
    expect(dir.received().length).to.equal(20);
    expect((await second.kill('SIGKILL')).signal).to.equal('SIGKILL');
    const again = onDisk(dir);
    expect(again.queued).to.equal(BULK - 20);
    const same = [...disk.due].filter(([id, due]) => again.due.get(id) === due).length;
    expect(same, 'the same due time for every one').to.equal(BULK - 20);

    // With the governor off every accepted send goes out, each once: nothing was lost.
    const third = await startServer(dir, {
      phones: PHONES,
      governor: { preset: 'off' },
      queue: { minGapMs: 0 },
    });
    expect(await eventually(() => dir.received().length >= BULK, 120_000)).to.equal(true);
    const bodies = new Set(dir.received().map((r) => r.body));
    expect(bodies.size).to.equal(BULK);
    expect(dir.received().length).to.equal(BULK);
    console.log(
      `      SIGKILL while deferred: accepted ${BULK}, sent before the kill ${before}, ` +
        `queued in the outbox ${disk.queued}, with due times in their rows ${disk.due.size}, ` +
        `deferred after a restart with the same due time ${same}, sent after it 0, ` +
        `delivered in the end ${bodies.size}, lost ${BULK - bodies.size}`,
    );
    await third.kill('SIGTERM');
  });
});
