// The `metrics` privilege (docs/plugins.md#metrics): a plugin's counters and histograms, checked
// names, one family per name, and what an exporter reads of them.
import { expect } from 'chai';
import { definePlugin, isWakitError } from '../../src/index.js';
import type { PluginMetrics } from '../../src/entries/types.js';
import net, { type AddressInfo } from 'node:net';
import restPlugin from '../../plugins/rest/index.js';
import { ADMIN_TOKEN } from '../helpers/rest-harness.js';
import { pluginFixture, type PluginFixture } from './plugin-helpers.js';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('plugin metrics (the metrics privilege)', function () {
  let fx: PluginFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  async function granted(): Promise<PluginMetrics> {
    let metrics: PluginMetrics | undefined;
    fx = await pluginFixture();
    fx.sdk.use(
      definePlugin({
        name: 'counting',
        privileges: ['metrics'],
        setup(_ctx, services) {
          metrics = services.metrics;
        },
      }),
    );
    await fx.start();
    if (!metrics) throw new Error('not granted');
    return metrics;
  }

  it('counts by labels; a histogram gives cumulative buckets, +Inf, sum and count', async () => {
    const metrics = await granted();
    const jobs = metrics.counter({ name: 'demo_jobs_total', help: 'Jobs', labelNames: ['kind'] });
    jobs.inc({ kind: 'a' });
    jobs.inc({ kind: 'a' }, 2);
    jobs.inc({ kind: 'b' });
    jobs.inc({ kind: 'b' }, -5); // ignored: a counter only goes up
    const time = metrics.histogram({ name: 'demo_seconds', help: 'Time', buckets: [1, 5] });
    time.observe({}, 0.5);
    time.observe({}, 3);
    time.observe({}, 9);
    const [counter, histogram] = metrics.families();
    expect(counter?.samples()).to.deep.equal([
      { suffix: '', labels: { kind: 'a' }, value: 3 },
      { suffix: '', labels: { kind: 'b' }, value: 1 },
    ]);
    expect(histogram?.type).to.equal('histogram');
    expect(histogram?.samples().map((s) => [s.suffix, s.labels.le ?? '', s.value])).to.deep.equal([
      ['_bucket', '1', 1],
      ['_bucket', '5', 2],
      ['_bucket', '+Inf', 3],
      ['_sum', '', 12.5],
      ['_count', '', 3],
    ]);
  });

  it('one family per name: the same definition again is the same counter, another is refused', async () => {
    const metrics = await granted();
    metrics.counter({ name: 'demo_total', help: 'x', labelNames: ['a'] }).inc({ a: '1' });
    metrics.counter({ name: 'demo_total', help: 'x', labelNames: ['a'] }).inc({ a: '1' });
    expect(metrics.families()[0]?.samples()[0]?.value).to.equal(2);
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return isWakitError(error) ? error.code : 'other';
      }
      return 'accepted';
    };
    expect(
      refused(() => metrics.counter({ name: 'demo_total', help: 'x', labelNames: ['b'] })),
    ).to.equal('VALIDATION_FAILED');
    expect(
      refused(() => metrics.histogram({ name: 'demo_total', help: 'x', labelNames: ['a'] })),
    ).to.equal('VALIDATION_FAILED');
    expect(refused(() => metrics.counter({ name: 'bad name', help: 'x' }))).to.equal(
      'VALIDATION_FAILED',
    );
    expect(refused(() => metrics.histogram({ name: 'h', help: 'x', labelNames: ['le'] }))).to.equal(
      'VALIDATION_FAILED',
    );
    expect(refused(() => metrics.histogram({ name: 'h', help: 'x', buckets: [2, 1] }))).to.equal(
      'VALIDATION_FAILED',
    );
  });

  it('the REST plugin serves a plugin family in /metrics, and skips (reports) one that clashes with its own', async () => {
    const port = await freePort();
    fx = await pluginFixture();
    fx.sdk.use(restPlugin, { port, tokens: [{ token: ADMIN_TOKEN, clients: ['*'] }] });
    fx.sdk.use(
      definePlugin({
        name: 'counting',
        privileges: ['metrics'],
        setup(_ctx, { metrics }) {
          metrics.counter({ name: 'demo_orders_total', help: 'Orders' }).inc({}, 3);
          metrics.counter({ name: 'wakit_sends_total', help: 'clash' }).inc();
        },
      }),
    );
    await fx.start();
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).to.equal(200);
    const text = await res.text();
    expect(text).to.include('# TYPE demo_orders_total counter\ndemo_orders_total 3');
    expect(text).not.to.include('clash');
    expect(fx.errors.map((e) => e.error.message)).to.deep.equal([
      'plugin metric wakit_sends_total clashes with a REST metric: not served',
    ]);
  });
});
