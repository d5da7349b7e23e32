import { expect } from 'chai';
import Database from 'better-sqlite3';
import path from 'node:path';
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

/** What the outbox and the governor's store hold after the kill (read straight from the files). */
function onDisk(dir: FaultDir) {
  const outbox = new Database(dir.outbox, { readonly: true });
  const statuses = outbox
    .prepare('SELECT status, count(*) AS n FROM sends GROUP BY status')
    .all() as {
    status: string;
    n: number;
  }[];
  outbox.close();
  const governor = new Database(path.join(dir.dataPath, 'governor.db'), { readonly: true });
  const deferred = governor
    .prepare("SELECT count(*) AS n, min(due_at) AS first FROM deferred WHERE client = 'bot'")
    .get() as { n: number; first: number };
  governor.close();
  const count = (status: string) => statuses.find((s) => s.status === status)?.n ?? 0;
  return {
    queued: count('queued'),
    sent: count('sent') + count('delivered') + count('read'),
    deferred,
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

  it(`${BULK} bulk sends to ${PHONES.length} new contacts under standard on a day-1 number: SIGKILL, the outbox keeps every waiting send and its due time, a restart keeps the budget spent, and with the governor off all ${BULK} arrive once`, async () => {
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
    expect(disk.deferred.n, 'and its due time').to.equal(BULK - 20);
    expect(disk.deferred.first).to.be.greaterThan(killedAt);

    // A restart under standard: the budget spent before the kill still counts, nothing more goes.
    const second = await startServer(dir, { phones: PHONES, governor, queue: { minGapMs: 0 } });
    expect(
      await eventually(async () => (await governorOf(second))?.deferred === BULK - 20),
    ).to.equal(true);
    const info = await governorOf(second);
    expect(info?.used).to.include({ perDay: 20, newContactsPerDay: 10 });
    expect(dir.received().length).to.equal(20);
    await second.kill('SIGTERM');

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
        `queued in the outbox ${disk.queued}, with due times ${disk.deferred.n}, ` +
        `sent after a restart under standard 0, delivered in the end ${bodies.size}, lost ${BULK - bodies.size}`,
    );
    await third.kill('SIGTERM');
  });
});
