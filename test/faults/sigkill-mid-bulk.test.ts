import { expect } from 'chai';
import { BULK, acceptBulk, settle } from './bulk-restart.js';
import { CONTACT_ID, FaultDir, duplicates, killAll, startServer } from './child-server.js';

describe('faults: SIGKILL mid-bulk, restart on the same data path (child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('120 accepted (202), SIGKILL after ~20 went out: all 120 sent after the restart, at most one twice, every id final', async () => {
    const first = await startServer(dir, { queue: { minGapMs: 50 } });
    const ids = await acceptBulk(first);
    await first.waitFor('20 messages out', (l) => l.event === 'received' && Number(l.count) >= 20);
    const killed = await first.kill('SIGKILL');
    expect(killed.signal).to.equal('SIGKILL');
    const beforeKill = dir.received();
    expect(beforeKill.length, 'the bulk was still going when killed').to.be.within(20, BULK - 1);
    expect(duplicates(beforeKill).size).to.equal(0);

    const second = await startServer(dir, { queue: { minGapMs: 5 } });
    const recovered = await second.waitFor('recovery log line', (l) =>
      /recovered from the outbox/.test(String(l.msg)),
    );
    const outcome = await settle(second, dir, ids);

    expect(outcome.sent).to.equal(BULK);
    expect(outcome.duplicates).to.be.at.most(1);
    // What was recovered is what had not gone out, plus the one in flight if its `sent` was lost.
    expect(Number(recovered.count)).to.equal(BULK - beforeKill.length + outcome.duplicates);
    expect([...outcome.statuses.values()].every((s) => s !== 'failed')).to.equal(true);
    console.log(
      `      SIGKILL: accepted ${BULK}, out before the kill ${beforeKill.length}, ` +
        `recovered ${String(recovered.count)}, sent ${outcome.sent}, duplicates ${outcome.duplicates}`,
    );
    await second.kill('SIGTERM');
  });

  it('a SIGKILL at the worst moment (a message has arrived, its `sent` is not journaled) sends exactly that one again', async () => {
    const first = await startServer(dir, { queue: { minGapMs: 50 } });
    const ids = await acceptBulk(first);
    await first.waitFor('10 messages out', (l) => l.event === 'received' && Number(l.count) >= 10);
    first.command({ cmd: 'kill-on-receive' });
    expect((await first.exited).signal).to.equal('SIGKILL');
    const beforeKill = dir.received();
    const inFlight = beforeKill.at(-1)!.body;
    expect(beforeKill.length).to.be.within(11, BULK - 1);

    const second = await startServer(dir, { queue: { minGapMs: 5 } });
    const recovered = await second.waitFor('recovery log line', (l) =>
      /recovered from the outbox/.test(String(l.msg)),
    );
    expect(Number(recovered.count)).to.equal(BULK - beforeKill.length + 1);
    const outcome = await settle(second, dir, ids);
    expect(outcome.sent).to.equal(BULK);
    expect(outcome.duplicates).to.equal(1);
    expect([...duplicates(dir.received()).keys()]).to.deep.equal([inFlight]);
    console.log(
      `      SIGKILL in the window: out before the kill ${beforeKill.length}, ` +
        `recovered ${String(recovered.count)}, sent ${outcome.sent}, duplicates ${outcome.duplicates} (${inFlight})`,
    );
    await second.kill('SIGTERM');
  });

  it('with pacing off (the next send starts at once), a SIGKILL at the worst moment still repeats only that one', async () => {
    const first = await startServer(dir, { queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 } });
    first.command({ cmd: 'kill-on-receive', at: 40 });
    // All at once, so sends run back to back; the child dies while answering: every 202 counts.
    const ids = new Map<string, string>();
    await Promise.all(
      Array.from({ length: BULK }, async (_, n) => {
        const body = `bulk-${String(n).padStart(3, '0')}`;
        const res = await first
          .request('POST', '/api/v1/messages', { json: { chatId: CONTACT_ID, content: body } })
          .catch(() => undefined);
        if (res?.status === 202) ids.set(body, (res.json as { id: string }).id);
      }),
    );
    expect((await first.exited).signal).to.equal('SIGKILL');
    const beforeKill = dir.received();
    const inFlight = beforeKill.at(-1)!.body;
    expect(beforeKill.length).to.equal(40);

    const second = await startServer(dir, { queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 } });
    const outcome = await settle(second, dir, ids);
    expect(outcome.sent).to.be.at.least(ids.size);
    expect(outcome.duplicates).to.equal(1);
    expect([...duplicates(dir.received()).keys()]).to.deep.equal([inFlight]);
    console.log(
      `      SIGKILL, pacing off: out before the kill ${beforeKill.length}, sent ${outcome.sent}, duplicates ${outcome.duplicates} (${inFlight})`,
    );
    await second.kill('SIGTERM');
  });
});
