import { expect } from 'chai';
import {
  ADMIN_TOKEN,
  CONTACT,
  readEvents,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

const PNG_BASE64 = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');

describe('REST: engine health, ENGINE_INCOMPATIBLE and held sends (simulator)', () => {
  let fx: RestFixture;
  beforeEach(async () => {
    fx = await restFixture({
      clients: ['bot'],
      config: {
        engine: {
          type: 'simulator',
          ackDelayMs: 5,
          build: { version: '2.3000.7-sim', broken: ['send.media'] },
        },
      },
    });
    await fx.link('bot');
  });
  afterEach(async () => {
    await fx.close();
  });

  const until = async (check: () => Promise<boolean>, ms = 3_000): Promise<void> => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('reports a degraded engine in info, /readyz and /metrics, fails the media send with 503 and holds it; the retry route sends it after the upgrade', async () => {
    await until(async () => {
      const info = await fx.request('GET', '/api/v1/client/info');
      return (info.json as { health: unknown }).health !== null;
    });
    const info = (await fx.request('GET', '/api/v1/client/info')).json as {
      health: { status: string; build: string; broken: string[]; capabilities: object };
      queue: object;
    };
    expect(info.health).to.deep.include({
      status: 'degraded',
      build: '2.3000.7-sim',
      broken: ['send.media'],
    });
    expect(info.health.capabilities)
      .to.have.property('send.media')
      .that.deep.includes({ ok: false });

    const ready = await fx.request('GET', '/readyz', { token: null });
    expect(ready.status).to.equal(200);
    expect(ready.json).to.deep.include({ status: 'degraded' });
    expect((ready.json as { reasons: string[] }).reasons[0]).to.match(/1 client\(s\) degraded/);

    const sent = await fx.request('POST', '/api/v1/messages', {
      headers: { prefer: 'wait=5' },
      json: {
        chatId: CONTACT,
        content: { type: 'image', data: PNG_BASE64, mimetype: 'image/png' },
      },
    });
    expect(sent.status).to.equal(503);
    expect(sent.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(sent.json).to.deep.include({ code: 'ENGINE_INCOMPATIBLE', status: 503 });
    const problem = sent.json as { detail: string; details: Record<string, unknown> };
    expect(problem.details).to.deep.include({
      capability: 'send.media',
      build: '2.3000.7-sim',
      held: true,
    });
    expect(problem.detail)
      .to.match(/send\.media/)
      .and.to.match(/2\.3000\.7-sim/);
    const location = sent.headers.get('location')!;
    const status = await fx.request('GET', location);
    expect(status.json).to.deep.include({ status: 'held' });
    expect(status.json).to.have.nested.property('error.code', 'ENGINE_INCOMPATIBLE');

    const metrics = (await fx.request('GET', '/metrics')).text;
    expect(metrics).to.include('wakit_engine_capability{client="bot",capability="send.media"} 0');
    expect(metrics).to.include('wakit_engine_capability{client="bot",capability="send.text"} 1');
    expect(metrics).to.include(
      'wakit_engine_degraded{client="bot",build="2.3000.7-sim",library=""} 1',
    );
    expect(metrics).to.include('wakit_queue_depth{client="bot",kind="held"} 1');

    // Without a token nothing is revealed or retried.
    expect(
      (await fx.request('POST', '/api/v1/client/held/retry', { token: null })).status,
    ).to.equal(401);
    expect((await fx.request('POST', '/api/v1/client/health', { token: null })).status).to.equal(
      401,
    );

    // Still broken: the retry holds it again.
    const early = await fx.request('POST', '/api/v1/client/held/retry');
    expect(early.status).to.equal(200);
    expect(early.json).to.deep.equal({ retried: 1 });
    await until(
      async () =>
        (await fx.request('GET', location)).json !== undefined &&
        ((await fx.request('GET', location)).json as { status: string }).status === 'held',
    );

    // The upgrade, then the operator's retry: sent, and the engine is healthy again.
    fx.sdk.simulator.build.set({ version: '2.3000.8-sim', broken: [] });
    const retried = await fx.request('POST', '/api/v1/client/held/retry');
    expect(retried.json).to.deep.equal({ retried: 1 });
    await fx.sdk.simulator.phone(CONTACT).waitForMessage((m) => m.type === 'image');
    await until(async () =>
      ['sent', 'delivered', 'read'].includes(
        ((await fx.request('GET', location)).json as { status: string }).status,
      ),
    );
    const healthy = await fx.request('GET', '/api/v1/client/info');
    expect(healthy.json).to.deep.nested.include({ 'health.status': 'ok', 'queue.held': 0 });
    const readyAgain = await fx.request('GET', '/readyz', { token: null });
    expect(readyAgain.json).to.deep.equal({ status: 'ready', reasons: [] });
  });

  it('POST /client/health probes now and streams engine.health over SSE when it changed', async () => {
    const url = `${fx.url}/api/v1/events?client=bot&types=engine.health`;
    const stream = readEvents(url, { token: ADMIN_TOKEN }, (events) =>
      events.some((e) => e.event === 'engine.health' && e.data.data.status === 'ok'),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    fx.sdk.simulator.build.set({ version: '2.3000.9-sim', broken: [] });
    const checked = await fx.request('POST', '/api/v1/client/health');
    expect(checked.status).to.equal(200);
    expect(checked.json).to.deep.include({ status: 'ok', build: '2.3000.9-sim', broken: [] });
    const { events } = await stream;
    const health = events.find((e) => e.event === 'engine.health')!;
    expect(health.data.data).to.deep.include({ status: 'ok', build: '2.3000.9-sim' });
  });
});
