import { expect } from 'chai';
import { restFixture, type RestFixture } from '../helpers/rest-harness.js';

const phone = (n: number) => `1555400${String(n).padStart(4, '0')}`;

describe('governor over REST: info, Prefer: wait and /metrics', function () {
  this.timeout(30_000);
  let fx: RestFixture | undefined;
  afterEach(async () => {
    await fx?.close();
  });

  it('a send beyond the new-contact budget answers 202 deferred at once; info and /metrics show the budgets', async () => {
    fx = await restFixture({
      config: {
        engine: { type: 'simulator', ackDelayMs: 5 },
        governor: { preset: 'standard', newContactsPerDay: 2, warmupDays: 0 },
      },
    });
    await fx.link('bot');
    for (let n = 0; n < 3; n++) fx.sdk.simulator.phone(phone(n));
    for (let n = 0; n < 2; n++) {
      const sent = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: phone(n), content: `hello ${n}` },
        headers: { prefer: 'wait=10' },
      });
      expect(sent.status).to.equal(201);
    }
    const started = Date.now();
    const third = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: phone(2), content: 'hello 2' },
      headers: { prefer: 'wait=10' },
    });
    expect(Date.now() - started).to.be.below(5_000);
    expect(third.status).to.equal(202);
    const body = third.json as { status: string; budget: string; dueAt: string };
    expect(body).to.include({ status: 'deferred', budget: 'newContactsPerDay' });
    expect(Date.parse(body.dueAt)).to.be.greaterThan(Date.now() + 23 * 3_600_000);

    const info = await fx.request('GET', '/api/v1/client/info');
    const governor = (info.json as { governor: Record<string, unknown> }).governor;
    expect(governor).to.deep.include({
      preset: 'standard',
      mode: 'enforce',
      deferred: 1,
      limits: { perHour: 60, perDay: 500, newContactsPerDay: 2 },
      used: { perHour: 2, perDay: 2, newContactsPerDay: 2 },
      restricted: null,
    });
    const metrics = await fx.request('GET', '/metrics');
    expect(metrics.text).to.match(
      /wakit_governor_budget\{client="bot",budget="newContactsPerDay",kind="used"\} 2/,
    );
    expect(metrics.text).to.match(/wakit_governor_deferred\{client="bot"\} 1/);

    // An operator's bypassBudget: the send goes past the spent budget, and is counted as bypassed.
    fx.sdk.simulator.phone(phone(3));
    const bypass = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: phone(3), content: 'urgent', bypassBudget: true },
      headers: { prefer: 'wait=10' },
    });
    expect(bypass.status).to.equal(201);
    const after = await fx.request('GET', '/api/v1/client/info');
    expect((after.json as { governor: Record<string, unknown> }).governor).to.deep.include({
      bypassed: 1,
      deferred: 1,
      used: { perHour: 3, perDay: 3, newContactsPerDay: 3 },
    });
    const refused = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: phone(3), content: 'x', bypassBudget: 'yes' },
    });
    expect(refused.status).to.equal(400);
  });
});
