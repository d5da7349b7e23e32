/** /healthz (liveness: restart me) against /readyz (readiness: send me traffic). */
import { expect } from 'chai';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { restFixture, type RestFixture } from '../../helpers/rest-harness.js';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in time: ${JSON.stringify(value)}`);
    await settle(25);
  }
}

describe('REST: /healthz liveness', function () {
  this.timeout(20_000);
  const fixtures: RestFixture[] = [];
  afterEach(async () => {
    for (const fx of fixtures.splice(0)) await fx.close();
  });
  async function fixture(watchdog: Record<string, number>): Promise<RestFixture> {
    const fx = await restFixture({ config: { watchdog, reconnect: { maxAttempts: 0 } } });
    fixtures.push(fx);
    return fx;
  }
  const health = async (fx: RestFixture) => {
    const res = await fx.request('GET', '/healthz', { token: null });
    return { status: res.status, body: res.json as { status: string; reasons: string[] } };
  };
  /** Every client FAILED: their session directories are files, and reconnects are off. */
  async function failEveryClient(fx: RestFixture): Promise<void> {
    for (const name of ['bot', 'other']) {
      await writeFile(path.join(fx.dir, name), 'not a directory');
      await fx.sdk
        .client(name)
        .initialize()
        .catch(() => undefined);
    }
    await eventually(
      () => Promise.resolve(fx.sdk.clients.map((c) => c.state)),
      (states) => states.every((s) => s === 'FAILED'),
    );
  }

  it('200 while the process serves, even with clients not READY (that is /readyz)', async () => {
    const fx = await fixture({});
    expect(await health(fx)).to.deep.equal({ status: 200, body: { status: 'ok', reasons: [] } });
    expect((await fx.request('GET', '/readyz', { token: null })).status).to.equal(503);
  });

  it('503 once every client has been FAILED past watchdog.failedGraceMs, not before', async () => {
    const patient = await fixture({ failedGraceMs: 60_000 });
    await failEveryClient(patient);
    expect((await health(patient)).status).to.equal(200);

    const strict = await fixture({ failedGraceMs: 0 });
    await failEveryClient(strict);
    const { status, body } = await health(strict);
    expect(status).to.equal(503);
    expect(body.status).to.equal('unhealthy');
    expect(body.reasons).to.have.length(1);
    expect(body.reasons[0]).to.match(/^every client \(2\) has been FAILED for \d+ s$/);

    // one client back: the process is useful again
    await rm(path.join(strict.dir, 'bot'));
    await strict.link('bot');
    expect(await health(strict)).to.deep.equal({
      status: 200,
      body: { status: 'ok', reasons: [] },
    });
  });

  it('503 after the event loop was blocked past watchdog.eventLoopUnhealthyMs, then 200 again', async () => {
    const fx = await fixture({ eventLoopCheckMs: 300, eventLoopUnhealthyMs: 150 });
    await fx.sdk.start();
    await settle(50);
    const until = Date.now() + 400;
    while (Date.now() < until) {
      /* a handler spinning on the CPU */
    }
    const wedged = await eventually(
      () => health(fx),
      (h) => h.status === 503,
    );
    expect(wedged.body.status).to.equal('unhealthy');
    expect(wedged.body.reasons[0]).to.match(
      /^the event loop was blocked for \d+ ms \(over 150 ms\)$/,
    );
    await eventually(
      () => health(fx),
      (h) => h.status === 200,
    );
  });
});
