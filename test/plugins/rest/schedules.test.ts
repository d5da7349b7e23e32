import { expect } from 'chai';
import { definePlugin } from '../../../src/index.js';
import { SCOPED_TOKEN, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: GET /api/v1/schedules', () => {
  let fx: RestFixture;

  before(async () => {
    fx = await restFixture({ clients: [] });
    fx.sdk.use(
      definePlugin({
        name: 'reports',
        setup(ctx) {
          ctx.schedule('0 9 * * 1', () => undefined, {
            name: 'weekly',
            timezone: 'Europe/Berlin',
            catchUp: 'last',
          });
          ctx.schedule('*/10 * * * *', () => undefined);
        },
      }),
    );
    await fx.sdk.start();
  });
  after(async () => {
    await fx?.close();
  });

  it("lists every plugin's jobs with their next run, behind the token", async () => {
    const res = await fx.request('GET', '/api/v1/schedules');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const jobs = res.json as Record<string, unknown>[];
    expect(jobs.map(({ nextRun: _n, ...job }) => job)).to.deep.equal([
      {
        plugin: 'reports',
        name: 'weekly',
        cron: '0 9 * * 1',
        timezone: 'Europe/Berlin',
        catchUp: 'last',
        lastRun: null,
        running: false,
      },
      {
        plugin: 'reports',
        name: '*/10 * * * *',
        cron: '*/10 * * * *',
        timezone: 'UTC',
        catchUp: 'none',
        lastRun: null,
        running: false,
      },
    ]);
    // Monday 09:00 in Berlin is 07:00 or 08:00 UTC; every 10 minutes falls on :x0:00
    const weekly = new Date(jobs[0].nextRun as string);
    expect(weekly.getUTCDay()).to.equal(1);
    expect([7, 8]).to.include(weekly.getUTCHours());
    const tenMinutes = Date.parse(jobs[1].nextRun as string);
    expect(tenMinutes % 600_000).to.equal(0);
    expect(tenMinutes - Date.now()).to.be.within(0, 600_000);
    // the same as the SDK lists
    expect(jobs).to.deep.equal(await fx.sdk.plugins.schedules());
    expect((await fx.request('GET', '/api/v1/schedules', { token: SCOPED_TOKEN })).status).to.equal(
      200,
    );
    const anonymous = await fx.request('GET', '/api/v1/schedules', { token: null });
    expect(anonymous.status).to.equal(401);
  });
});
