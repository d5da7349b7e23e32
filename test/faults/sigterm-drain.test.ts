import { expect } from 'chai';
import { BULK, acceptBulk, settle } from './bulk-restart.js';
import { FaultDir, killAll, startServer } from './child-server.js';

describe('faults: SIGTERM mid-bulk drains within the deadline, keeps the rest (child processes)', function () {
  this.timeout(240_000);
  let dir: FaultDir;
  beforeEach(async () => {
    dir = await FaultDir.create();
  });
  afterEach(async () => {
    await killAll();
    await dir.remove();
  });

  it('120 accepted (202), SIGTERM after ~20: drains for drainTimeoutMs, logs the kept ids; after the restart all 120 sent exactly once', async () => {
    // 50 ms between sends: the 100 left need 5 s at least, far beyond the 1 s drain deadline.
    const first = await startServer(dir, { queue: { minGapMs: 50, drainTimeoutMs: 1_000 } });
    const ids = await acceptBulk(first);
    await first.waitFor('20 messages out', (l) => l.event === 'received' && Number(l.count) >= 20);
    const atSignal = dir.received().length;
    const stopped = await first.kill('SIGTERM');
    expect(stopped.code, 'a graceful exit').to.equal(0);
    expect(first.lines.some((l) => l.event === 'stopped')).to.equal(true);

    const beforeStop = dir.received().map((r) => r.body);
    expect(beforeStop.length, 'the drain deadline ended the drain').to.be.within(21, BULK - 1);
    const summary = first.lines.find((l) => /sends left in the outbox/.test(String(l.msg)));
    expect(summary, 'the count of kept sends is logged').to.not.equal(undefined);
    const kept = first.lines
      .filter((l) => l.msg === 'left in the outbox')
      .flatMap((l) => l.trackingIds as string[]);
    const notSent = [...ids].filter(([body]) => !beforeStop.includes(body)).map(([, id]) => id);
    expect(summary!.remaining).to.equal(notSent.length);
    expect([...kept].sort()).to.deep.equal([...notSent].sort());

    const second = await startServer(dir, { queue: { minGapMs: 5 } });
    const recovered = await second.waitFor('recovery log line', (l) =>
      /recovered from the outbox/.test(String(l.msg)),
    );
    expect(recovered.count).to.equal(kept.length);
    const outcome = await settle(second, dir, ids);
    expect(outcome.sent).to.equal(BULK);
    expect(outcome.duplicates).to.equal(0);
    expect([...outcome.statuses.values()].every((s) => s !== 'failed')).to.equal(true);
    console.log(
      `      SIGTERM: accepted ${BULK}, out before the exit ${beforeStop.length} ` +
        `(${beforeStop.length - atSignal} of them during the 1 s drain), kept ${kept.length}, sent ${outcome.sent}, ` +
        `duplicates ${outcome.duplicates}`,
    );
    await second.kill('SIGTERM');
  });
});
