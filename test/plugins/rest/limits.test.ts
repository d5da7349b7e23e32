/** REST limits: event-loop lag in /metrics, SSE replay and quotas, per-token rate limits. */
import net from 'node:net';
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk } from '../../../src/index.js';
import { createRestServer } from '../../../plugins/rest/server.js';
import {
  ADMIN_TOKEN,
  CONTACT,
  SCOPED_TOKEN,
  readEvents,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';
import { tempDir } from '../../helpers/sdk-fixtures.js';
import { restHostOf } from '../../helpers/rest-host.js';

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

  it('SSE: a new stream starts live; only Last-Event-ID or ?since= replay the buffer', async () => {
    const fx = await fixture();
    await fx.link('bot');
    await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'before' },
      headers: { prefer: 'wait=5' },
    });
    const before = fx.server.hub.lastSeq;
    expect(before).to.be.above(3);
    const fresh = await readEvents(
      `${fx.url}/api/v1/events`,
      { token: ADMIN_TOKEN },
      () => false,
      400,
    );
    expect(fresh.status).to.equal(200);
    // only live events (acks still arriving), nothing from before the connection
    expect(fresh.events.filter((e) => Number(e.id) <= before)).to.deep.equal([]);
    const since = await readEvents(
      `${fx.url}/api/v1/events?since=0&types=message.create`,
      { token: ADMIN_TOKEN },
      (e) => e.length >= 1,
      2_000,
    );
    expect(since.events.map((e) => e.data.data.body)).to.deep.equal(['before']);
  });

  it('SSE: streams are limited per token as well as in total', async () => {
    const fx = await fixture({
      rest: { sse: { maxStreams: 10, maxStreamsPerToken: 2, heartbeatMs: 200 } },
    });
    const held = [0, 1].map(() =>
      readEvents(`${fx.url}/api/v1/events`, { token: SCOPED_TOKEN }, () => false, 800),
    );
    await settle(200);
    const third = await fx.request('GET', '/api/v1/events', { token: SCOPED_TOKEN });
    expect(third.status).to.equal(429);
    expect(third.json).to.include({ code: 'TOO_MANY_REQUESTS' });
    // another tenant is not locked out
    const admin = await readEvents(
      `${fx.url}/api/v1/events`,
      { token: ADMIN_TOKEN },
      () => false,
      200,
    );
    expect(admin.status).to.equal(200);
    await Promise.all(held);
    // slots are given back when streams end (once the server sees the disconnects)
    const reopen = () =>
      readEvents(`${fx.url}/api/v1/events`, { token: SCOPED_TOKEN }, () => true, 500);
    await eventually(async () => (await reopen()).status === 200);
  });

  it('rate-limits each token (429 with Retry-After), other tokens unaffected', async () => {
    const fx = await fixture({ rest: { rateLimit: { requestsPerSecond: 0.5, burst: 3 } } });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<RestFixture['request']>> | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await fx.request('GET', '/api/v1/clients');
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429]);
    expect(limited?.json).to.include({ code: 'TOO_MANY_REQUESTS', status: 429 });
    expect(limited?.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(Number(limited?.headers.get('retry-after'))).to.be.within(1, 3);
    expect((await fx.request('GET', '/api/v1/clients', { token: SCOPED_TOKEN })).status).to.equal(
      200,
    );
    // unauthenticated probes are not counted against a token, and stay 401
    expect((await fx.request('GET', '/api/v1/clients', { token: null })).status).to.equal(401);
    expect((await fx.request('GET', '/healthz', { token: null })).status).to.equal(200);
  });

  it('answers an unknown Expect: header with a problem+json 417', async () => {
    const fx = await fixture();
    const { hostname, port } = new URL(fx.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () =>
        socket.write(
          `POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n{}`,
        ),
      );
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).to.match(/^HTTP\/1\.1 417 /);
    expect(answer).to.match(/application\/problem\+json/);
    expect(answer).to.match(/"code":"EXPECTATION_FAILED"/);
  });

  it('caps the errors of a validation problem (40,000 unknown keys)', async () => {
    const fx = await fixture();
    const body: Record<string, unknown> = { chatId: CONTACT, content: 'x' };
    for (let i = 0; i < 40_000; i++) body[`k${i}`] = 1;
    const res = await fx.request('POST', '/api/v1/messages', { json: body });
    expect(res.status).to.equal(400);
    const problem = res.json as { errors: unknown[]; detail: string };
    expect(problem.errors.length).to.be.at.most(51);
    expect(res.text.length).to.be.below(20_000);
  });

  it('listens on an IPv6 loopback host written with brackets ([::1])', async () => {
    const { dir, cleanup } = await tempDir('wakit-v6-');
    const sdk = createSdk(
      { engine: { type: 'simulator' }, auth: { type: 'local', dataPath: dir } },
      { logger: pino({ level: 'silent' }) },
    );
    const server = await createRestServer({
      sdk: restHostOf(sdk),
      logger: pino({ level: 'silent' }),
      options: { port: 0, host: '[::1]', insecure: true, tokens: [] },
    });
    try {
      await server.listen();
      expect(server.url).to.match(/^http:\/\/\[::1\]:\d+$/);
      expect((await fetch(`${server.url}/healthz`)).status).to.equal(200);
    } finally {
      await server.close();
      await cleanup();
    }
  });
});
