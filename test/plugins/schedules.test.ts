// Recurring jobs of plugins (`ctx.schedule`, docs/scheduling.md "Recurring jobs") on one server,
// driven by a VirtualClock: next runs, time zones, the missed-firing policy across a restart,
// a handler still running (its next firing skipped), failures reported, and bad input refused.
import { expect } from 'chai';
import path from 'node:path';
import { pino } from 'pino';
import {
  createSdk,
  definePlugin,
  type Sdk,
  type WakitError,
  type WakitErrorEvent,
} from '../../src/index.js';
import { CLOCK } from '../../src/kernel/public-tokens.js';
import { VirtualClock } from '../../src/entries/testing.js';
import type { ScheduleOptions, ScheduleRun } from '../../src/entries/types.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

interface Job {
  spec: string;
  options?: ScheduleOptions;
  run?: (run: ScheduleRun) => unknown;
}

const runs: { name: string; firingAt: string; catchUp: boolean }[] = [];
let onRun: () => void = () => undefined;

/** Resolves once `count` runs were recorded (the catch-up run starts after `sdk.start()`). */
function ranTimes(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => (runs.length >= count ? resolve() : undefined);
    onRun = check;
    check();
  });
}

function schedulingPlugin(jobs: Job[]) {
  return definePlugin({
    name: 'jobs',
    setup(ctx) {
      for (const job of jobs) {
        ctx.schedule(
          job.spec,
          (run) => {
            runs.push({
              name: run.name,
              firingAt: run.firingAt.toISOString(),
              catchUp: run.catchUp,
            });
            onRun();
            return job.run?.(run);
          },
          job.options,
        );
      }
    },
  });
}

describe('plugins: recurring jobs (ctx.schedule) on a virtual clock', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const sdks: Sdk[] = [];
  const errors: WakitErrorEvent[] = [];

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    runs.length = 0;
    errors.length = 0;
  });
  afterEach(async () => {
    for (const sdk of sdks.splice(0)) await sdk.stop();
    await cleanup();
  });

  async function start(jobs: Job[], clock: VirtualClock): Promise<Sdk> {
    const sdk = createSdk(
      {
        engine: { type: 'simulator' },
        auth: { type: 'local', dataPath: path.join(dir, 'data') },
        log: { level: 'silent' },
      },
      {
        logger: pino({ level: 'silent' }),
        baseDir: dir,
        services: (s) => void s.register(CLOCK, { useValue: clock }),
      },
    );
    sdks.push(sdk);
    sdk.on('error', (event) => errors.push(event));
    sdk.use(schedulingPlugin(jobs));
    await sdk.start();
    return sdk;
  }

  it('fires every 2 s at each firing time, once, and lists the next run', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    const sdk = await start([{ spec: '*/2 * * * * *', options: { name: 'tick' } }], clock);
    const [listed] = await sdk.plugins.schedules();
    expect(listed).to.include({
      plugin: 'jobs',
      name: 'tick',
      cron: '*/2 * * * * *',
      timezone: 'UTC',
      catchUp: 'none',
      nextRun: '2026-01-01T00:00:02.000Z',
      running: false,
    });
    await clock.advance(10_000);
    expect(runs.map((r) => r.firingAt)).to.deep.equal([
      '2026-01-01T00:00:02.000Z',
      '2026-01-01T00:00:04.000Z',
      '2026-01-01T00:00:06.000Z',
      '2026-01-01T00:00:08.000Z',
      '2026-01-01T00:00:10.000Z',
    ]);
    const [after] = await sdk.plugins.schedules();
    expect(after.nextRun).to.equal('2026-01-01T00:00:12.000Z');
    expect(after.lastRun).to.equal('2026-01-01T00:00:10.000Z');
  });

  it('reads the expression in its time zone, across a daylight-saving change', async () => {
    // 09:00 in New York: 14:00 UTC in winter, 13:00 UTC after 8 March 2026
    const clock = new VirtualClock(Date.UTC(2026, 2, 6, 15, 0));
    const sdk = await start(
      [{ spec: '0 9 * * *', options: { name: 'morning', timezone: 'America/New_York' } }],
      clock,
    );
    expect((await sdk.plugins.schedules())[0].nextRun).to.equal('2026-03-07T14:00:00.000Z');
    await clock.advance(3 * 24 * 3_600_000);
    expect(runs.map((r) => r.firingAt)).to.deep.equal([
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
  });

  it("catchUp 'last' runs the most recent missed firing once after a restart; 'none' skips them", async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1, 8, 30));
    const jobs: Job[] = [
      { spec: '0 * * * *', options: { name: 'hourly-last', catchUp: 'last' } },
      { spec: '0 * * * *', options: { name: 'hourly-none' } },
    ];
    const first = await start(jobs, clock);
    await clock.advance(60 * 60_000); // 09:00 runs, then the bot is down
    expect(runs.map((r) => `${r.name} ${r.firingAt}`)).to.have.members([
      'hourly-last 2026-01-01T09:00:00.000Z',
      'hourly-none 2026-01-01T09:00:00.000Z',
    ]);
    await first.stop();
    runs.length = 0;
    // down from 09:30 to 12:20: 10:00, 11:00 and 12:00 were missed
    await clock.advance(170 * 60_000);
    const second = await start(jobs, clock);
    await ranTimes(1);
    expect(runs).to.deep.equal([
      { name: 'hourly-last', firingAt: '2026-01-01T12:00:00.000Z', catchUp: true },
    ]);
    const listed = await second.plugins.schedules();
    expect(listed.find((j) => j.name === 'hourly-last')?.lastRun).to.equal(
      '2026-01-01T12:00:00.000Z',
    );
    expect(listed.find((j) => j.name === 'hourly-none')?.lastRun).to.equal(
      '2026-01-01T09:00:00.000Z',
    );
    await clock.advance(40 * 60_000);
    expect(runs.map((r) => `${r.name} ${r.firingAt}`)).to.have.members([
      'hourly-last 2026-01-01T12:00:00.000Z',
      'hourly-last 2026-01-01T13:00:00.000Z',
      'hourly-none 2026-01-01T13:00:00.000Z',
    ]);
    // a third start catches nothing up: 13:00 ran
    await second.stop();
    runs.length = 0;
    await start(jobs, clock);
    await clock.advance(60 * 60_000);
    expect(runs.map((r) => `${r.name} ${r.firingAt} ${r.catchUp}`)).to.have.members([
      'hourly-last 2026-01-01T14:00:00.000Z false',
      'hourly-none 2026-01-01T14:00:00.000Z false',
    ]);
  });

  it('the first start with a job catches nothing up (nothing was missed)', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1, 8, 30));
    await start([{ spec: '0 * * * *', options: { catchUp: 'last' } }], clock);
    await clock.advance(31 * 60_000);
    expect(runs).to.deep.equal([
      { name: '0 * * * *', firingAt: '2026-01-01T09:00:00.000Z', catchUp: false },
    ]);
  });

  it('skips a firing while the handler still runs, and reports a failing handler', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 0, 1));
    let release: () => void = () => undefined;
    let calls = 0;
    const sdk = await start(
      [
        {
          spec: '* * * * * *',
          options: { name: 'slow' },
          run: () => {
            calls += 1;
            // the first run takes 3.5 s: the firings at 2 s, 3 s and 4 s are skipped
            if (calls === 1) return new Promise<void>((resolve) => (release = resolve));
            return undefined;
          },
        },
        {
          spec: '*/5 * * * * *',
          options: { name: 'broken' },
          run: () => {
            throw new Error('boom');
          },
        },
      ],
      clock,
    );
    await clock.advance(1_000);
    expect((await sdk.plugins.schedules()).find((j) => j.name === 'slow')?.running).to.equal(true);
    await clock.advance(3_500);
    release();
    await clock.advance(1_500);
    const slow = runs.filter((r) => r.name === 'slow').map((r) => r.firingAt.slice(17, 19));
    expect(slow).to.deep.equal(['01', '05', '06']);
    expect(runs.filter((r) => r.name === 'broken')).to.have.length(1);
    expect(errors.map((e) => [e.source, e.plugin, e.event, e.error.message])).to.deep.equal([
      ['plugin', 'jobs', 'schedule:broken', 'boom'],
    ]);
  });

  it('refuses a bad expression, an unknown time zone and a duplicate name (VALIDATION_FAILED)', async () => {
    const clock = new VirtualClock();
    for (const jobs of [
      [{ spec: 'every minute' }],
      [{ spec: '* * * * *', options: { timezone: 'Mars/Olympus' } }],
      [{ spec: '* * * * *' }, { spec: '* * * * *' }],
    ]) {
      const failure = await start(jobs, clock).then(
        () => undefined,
        (error: WakitError) => error,
      );
      expect(failure?.code, JSON.stringify(jobs)).to.equal('VALIDATION_FAILED');
    }
  });
});
