import { expect } from 'chai';
import { Histogram, Registry } from 'prom-client';
import { TalliedHistogram } from '../../../plugins/rest/metrics/tallied-histogram.js';

describe('TalliedHistogram', () => {
  const buckets = [0.001, 0.01, 0.1, 1];
  const observations: Array<[method: string, route: string, seconds: number]> = [
    ['POST', '/api/v1/messages', 0.0004],
    ['POST', '/api/v1/messages', 0.001], // on a bound: counted in that bucket (le)
    ['POST', '/api/v1/messages', 0.05],
    ['GET', '/api/v1/clients', 2.5], // beyond the last bound: +Inf only
    ['POST', '/api/v1/messages', 0.7],
  ];

  it("prints what prom-client's Histogram prints for the same observations", async () => {
    const theirs = new Registry();
    const reference = new Histogram({
      name: 'h_seconds',
      help: 'a histogram',
      labelNames: ['method', 'route'],
      buckets,
      registers: [theirs],
    });
    const ours = new Registry();
    const tallied = new TalliedHistogram<'method' | 'route'>({
      name: 'h_seconds',
      help: 'a histogram',
      buckets,
      registry: ours,
    });
    for (const [method, route, seconds] of observations) {
      reference.observe({ method, route }, seconds);
      tallied.observe(`${method} ${route}`, () => ({ method, route }), seconds);
    }
    const text = await ours.metrics();
    expect(text).to.equal(await theirs.metrics());
    expect(text).to.include(
      'h_seconds_bucket{le="0.001",method="POST",route="/api/v1/messages"} 2',
    );
    expect(text).to.include('h_seconds_count{method="GET",route="/api/v1/clients"} 1');
    // JSON too, but for prom-client's empty exemplar fields
    const json = async (registry: Registry): Promise<unknown> =>
      JSON.parse(
        JSON.stringify(await registry.getMetricsAsJSON(), (k: string, v: unknown) =>
          k === 'exemplar' ? undefined : v,
        ),
      ) as unknown;
    expect(await json(ours)).to.deep.equal(await json(theirs));
  });

  it('forgets its series when the registry resets metrics', async () => {
    const registry = new Registry();
    const tallied = new TalliedHistogram<'client'>({ name: 'r', help: 'r', buckets, registry });
    tallied.observe('bot', () => ({ client: 'bot' }), 0.5);
    registry.resetMetrics();
    expect(await registry.metrics()).to.equal('# HELP r r\n# TYPE r histogram\n');
  });
});
