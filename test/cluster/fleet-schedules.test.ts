// Recurring jobs in a fleet (docs/scheduling.md "Recurring jobs"): a job every 2 s on two real
// nodes (each its own SDK, one real redis-server) for ~20 s runs each firing exactly once in the
// fleet, counted by firing time; a job whose handler outlasts its period is not started on the
// other node while it runs.
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { definePlugin } from '../../src/index.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import { fleetHarness, type FleetHarness } from './fleet-harness.js';

interface Run {
  node: string;
  job: string;
  firingAt: number;
  startedAt: number;
  endedAt?: number;
}

function jobsOf(node: string, runs: Run[]) {
  return definePlugin({
    name: 'jobs',
    setup(ctx) {
      ctx.schedule(
        '*/2 * * * * *',
        ({ firingAt }) => {
          runs.push({ node, job: 'tick', firingAt: firingAt.getTime(), startedAt: Date.now() });
        },
        { name: 'tick' },
      );
      // takes 3 s every 2 s: every other firing comes while it runs somewhere in the fleet
      ctx.schedule(
        '*/2 * * * * *',
        async ({ firingAt }) => {
          const run: Run = {
            node,
            job: 'slow',
            firingAt: firingAt.getTime(),
            startedAt: Date.now(),
          };
          runs.push(run);
          await sleep(3_000);
          run.endedAt = Date.now();
        },
        { name: 'slow' },
      );
    },
  });
}

describe('cluster: recurring jobs run once per fleet per firing', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet: FleetHarness;

  before(async () => {
    redis = await RedisServer.start();
    gcs = await FakeGcsServer.start();
  });

  // each test starts a fleet of its own: stop it after the test, or its heartbeats and Redis
  // reconnects run on through the rest of the suite
  afterEach(async () => fleet?.dispose());

  after(async () => {
    await gcs?.close();
    await redis?.dispose();
  });

  it('a job every 2 s on two nodes for 20 s: each firing runs exactly once', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const runs: Run[] = [];
    const a = await fleet.start({ nodeId: 'sched-a', plugins: [jobsOf('sched-a', runs)] });
    // from here on a node has armed the job: no firing may be missed
    const startedAt = Date.now();
    await fleet.start({ nodeId: 'sched-b', plugins: [jobsOf('sched-b', runs)] });
    await sleep(20_000);
    const endedAt = Date.now();
    const ticks = runs.filter((r) => r.job === 'tick');
    const byFiring = new Map<number, string[]>();
    for (const run of ticks)
      byFiring.set(run.firingAt, [...(byFiring.get(run.firingAt) ?? []), run.node]);
    // every firing between the start of the first node and the end ran, and ran once
    const expected: number[] = [];
    for (let at = Math.ceil((startedAt + 1) / 2_000) * 2_000; at <= endedAt - 1_000; at += 2_000)
      expected.push(at);
    expect(expected.length).to.be.at.least(9);
    for (const at of expected) {
      expect(byFiring.get(at), `firing ${new Date(at).toISOString()}`).to.have.length(1);
    }
    expect(
      [...byFiring.values()].every((nodes) => nodes.length === 1),
      'no firing twice',
    ).to.equal(true);
    console.log(
      `      tick: ${ticks.length} runs of ${byFiring.size} firings (${ticks.filter((r) => r.node === 'sched-a').length} on a, ${ticks.filter((r) => r.node === 'sched-b').length} on b)`,
    );
    // the slow job never ran on two nodes at once, and skipped the firings that came while it ran
    const slow = runs.filter((r) => r.job === 'slow').sort((x, y) => x.startedAt - y.startedAt);
    for (let i = 1; i < slow.length; i++) {
      const previous = slow[i - 1];
      expect(previous.endedAt, 'the previous run finished').to.not.equal(undefined);
      expect(slow[i].startedAt, `run ${i} started after run ${i - 1} ended`).to.be.at.least(
        previous.endedAt!,
      );
    }
    expect(slow.length).to.be.within(4, 7);
    console.log(`      slow: ${slow.length} runs in ~20 s, never two at once`);
    const listed = await a.plugins.schedules();
    expect(listed.map((j) => j.name).sort()).to.deep.equal(['slow', 'tick']);
    expect(Date.parse(listed[0].nextRun!)).to.be.greaterThan(Date.now() - 2_000);
  });

  it("catchUp 'last' after the whole fleet was down: the missed firing runs once, on one node", async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const runs: { node: string; firingAt: number; catchUp: boolean }[] = [];
    const job = (node: string) =>
      definePlugin({
        name: 'jobs',
        setup(ctx) {
          ctx.schedule(
            '*/5 * * * * *',
            ({ firingAt, catchUp }) =>
              void runs.push({ node, firingAt: firingAt.getTime(), catchUp }),
            { name: 'five', catchUp: 'last' },
          );
        },
      });
    const first = await fleet.start({ nodeId: 'up-a', plugins: [job('up-a')] });
    await eventuallyRan(() => runs.length >= 1);
    await first.stop({ drainTimeoutMs: 0 });
    const stoppedAt = Date.now();
    // down over at least one firing
    await sleep(6_000);
    runs.length = 0;
    await Promise.all([
      fleet.start({ nodeId: 'up-b', plugins: [job('up-b')] }),
      fleet.start({ nodeId: 'up-c', plugins: [job('up-c')] }),
    ]);
    await sleep(6_000);
    const caught = runs.filter((r) => r.catchUp);
    expect(caught, JSON.stringify(runs)).to.have.length(1);
    expect(caught[0].firingAt).to.be.greaterThan(stoppedAt);
    const times = runs.map((r) => r.firingAt);
    expect(new Set(times).size, 'no firing twice').to.equal(times.length);
    console.log(
      `      catch-up: 1 run of ${new Date(caught[0].firingAt).toISOString()} on ${caught[0].node}; ${runs.length - 1} regular runs after, none twice`,
    );
  });
});

async function eventuallyRan(check: () => boolean): Promise<void> {
  const until = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > until) throw new Error('the job did not run within 10 s');
    await sleep(50);
  }
}
