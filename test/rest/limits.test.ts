/** REST limits: event-loop lag in /metrics, SSE replay and quotas, per-token rate limits. */
import { expect } from 'chai';
import { restFixture, type RestFixture } from '../helpers/rest-harness.js';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await settle(20);
  }
}

describe('REST: limits', () => {
  const fixtures: RestFixture[] = [];
  afterEach(async () => {
    for (const fx of fixtures.splice(0)) await fx.close();
  });
  async function fixture(options: Parameters<typeof restFixture>[0] = {}): Promise<RestFixture> {
    const fx = await restFixture(options);
    fixtures.push(fx);
    return fx;
  }

  it('/metrics exports the event-loop delay (a blocked loop shows up)', async () => {
    const fx = await fixture({
      start: true,
      config: { watchdog: { eventLoopCheckMs: 50, eventLoopDelayWarnMs: 10_000 } },
    });
    await settle(100);
    const until = Date.now() + 300;
    while (Date.now() < until) {
      /* spin */
    }
    const worst = async (): Promise<number> => {
      const text = (await fx.request('GET', '/metrics')).text;
      const match = /^wakit_event_loop_delay_seconds\{stat="worst"\} ([\d.e-]+)$/m.exec(text);
      return match ? Number(match[1]) : -1;
    };
    await eventually(async () => (await worst()) >= 0.25);
    const text = (await fx.request('GET', '/metrics')).text;
    for (const stat of ['max', 'mean', 'p99', 'worst']) {
      expect(text).to.match(
        new RegExp(`^wakit_event_loop_delay_seconds\\{stat="${stat}"\\} `, 'm'),
      );
    }
  });
});
