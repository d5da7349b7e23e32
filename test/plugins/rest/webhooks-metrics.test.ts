import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { backoffDelay } from '../../../plugins/rest/events/webhooks.js';
import {
  CONTACT,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

const SECRET = 'webhook-secret-0123456789';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A local receiver; `answer(n)` gives the status for the n-th request (0-based), or 'hang'. */
async function receiver(answer: (n: number) => number | 'hang') {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body, at: Date.now() });
      const status = answer(n);
      if (status === 'hang') hanging.push(res);
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How a receiver verifies a delivery (the snippet of docs/rest-api.md). */
function verify(secret: string, rawBody: string, header: string | undefined): boolean {
  const expected = Buffer.from(
    `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`,
  );
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Standard Webhooks verification, exactly as docs/rest-api.md shows it: HMAC-SHA256 over
 * `id.timestamp.body`, base64, compared in constant time; timestamps older than 5 minutes refused.
 */
function verifyStandard(
  secret: string,
  headers: http.IncomingHttpHeaders,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
    return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return false; // replayed or stale
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice(6), 'base64')
    : Buffer.from(secret, 'utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((candidate) => {
    const [version, signature] = candidate.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('REST: webhooks and metrics', () => {
  let fx: RestFixture;
  let hook: Awaited<ReturnType<typeof receiver>>;
  afterEach(async () => {
    await fx?.close();
    await hook?.close();
  });

  it('signs deliveries the Standard Webhooks way (webhook-id, -timestamp, -signature): a replay is refused', async () => {
    hook = await receiver(() => 204);
    const whsec = `whsec_${Buffer.from('standard-webhooks-key-0123').toString('base64')}`;
    fx = await restFixture({
      rest: {
        webhooks: [
          { url: hook.url, secret: SECRET, events: ['ready'] },
          { url: hook.url, secret: whsec, events: ['ready'] },
        ],
      },
    });
    await fx.link('bot');
    await until(() => hook.received.length === 2);
    const [plain, standard] = [...hook.received].sort((a, b) =>
      verifyStandard(SECRET, a.headers, a.body)
        ? -1
        : verifyStandard(SECRET, b.headers, b.body)
          ? 1
          : 0,
    ) as [Received, Received];
    expect(verifyStandard(SECRET, plain.headers, plain.body)).to.equal(true);
    expect(verifyStandard(whsec, standard.headers, standard.body)).to.equal(true);
    expect(verifyStandard(whsec, plain.headers, plain.body)).to.equal(false);
    const headers = plain.headers;
    expect(headers['webhook-id']).to.equal(headers['x-wakit-delivery']);
    expect(Number(headers['webhook-timestamp'])).to.be.closeTo(Date.now() / 1000, 30);
    expect(headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
    // a tampered body, another id, or a replay ten minutes later do not verify
    expect(verifyStandard(SECRET, headers, `${plain.body} `)).to.equal(false);
    expect(verifyStandard(SECRET, { ...headers, 'webhook-id': 'other' }, plain.body)).to.equal(
      false,
    );
    const later = Math.floor(Date.now() / 1000) + 600;
    expect(verifyStandard(SECRET, headers, plain.body, later)).to.equal(false);
    // the legacy header stays for one version
    expect(verify(SECRET, plain.body, headers['x-wakit-signature'] as string)).to.equal(true);
  });

  it('delivers signed events, retrying non-2xx answers with backoff and the same delivery id', async () => {
    hook = await receiver((n) => (n < 2 ? 500 : 204));
    fx = await restFixture({
      rest: {
        webhooks: [
          { url: hook.url, secret: SECRET, events: ['ready'], backoffMs: 30, maxAttempts: 5 },
        ],
      },
    });
    await fx.link('bot');
    await until(() => hook.received.length === 3);
    const [first, second, third] = hook.received as [Received, Received, Received];
    for (const r of hook.received) {
      expect(r.headers['x-wakit-event']).to.equal('ready');
      expect(r.headers['content-type']).to.equal('application/json');
      expect(verify(SECRET, r.body, r.headers['x-wakit-signature'] as string)).to.equal(true);
      expect(
        verify('another-secret-0123456789', r.body, r.headers['x-wakit-signature'] as string),
      ).to.equal(false);
    }
    expect(second.headers['x-wakit-delivery']).to.equal(first.headers['x-wakit-delivery']);
    expect(third.headers['x-wakit-attempt']).to.equal('3');
    // The delays are jittered (uniform in [0, 30 · 2^(n-1)] ms); their bounds are tested below.
    const body = JSON.parse(third.body) as Record<string, unknown>;
    expect(body).to.include({
      event: 'ready',
      client: 'bot',
      id: first.headers['x-wakit-delivery'],
    });
    expect(body).to.have.keys('id', 'event', 'client', 'at', 'data');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(hook.received).to.have.length(3);
    const metrics = await fx.request('GET', '/metrics');
    expect(metrics.text).to.match(/wakit_webhook_deliveries_total\{outcome="retried"\} 2/);
    expect(metrics.text).to.match(/wakit_webhook_deliveries_total\{outcome="delivered"\} 1/);
  });

  it('gives up after maxAttempts and never blocks the client, even when the receiver hangs', async () => {
    hook = await receiver(() => 503);
    const hanging = await receiver(() => 'hang');
    try {
      fx = await restFixture({
        rest: {
          webhooks: [
            {
              url: hook.url,
              secret: SECRET,
              events: ['message.create'],
              backoffMs: 5,
              maxAttempts: 3,
            },
            { url: hanging.url, secret: SECRET, timeoutMs: 30_000, maxPending: 2 },
          ],
        },
      });
      await fx.link('bot');
      const res = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: CONTACT, content: 'not blocked' },
        headers: { prefer: 'wait=5' },
      });
      // 201 (not 202 after the wait) shows the hanging receiver did not hold the send up.
      expect(res.status).to.equal(201);
      await until(() => hook.received.length === 3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(hook.received).to.have.length(3);
      const metrics = await fx.request('GET', '/metrics');
      expect(metrics.text).to.match(/wakit_webhook_deliveries_total\{outcome="failed"\} 1/);
      expect(metrics.text).to.match(/wakit_webhook_deliveries_total\{outcome="dropped"\} [1-9]/);
    } finally {
      await fx.close();
      await hanging.close();
    }
  });

  it('backs off exponentially up to the cap, with full jitter', () => {
    const hook = { backoffMs: 100, maxBackoffMs: 1_000 };
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(hook, n, top))).to.deep.equal([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(hook, n, () => 0.5))).to.deep.equal([
      50, 100, 200, 400, 500, 500,
    ]);
    expect(backoffDelay(hook, 3, () => 0)).to.equal(0);
  });

  it('exposes Prometheus metrics: clients by state, queue depth, sends by outcome and code, latencies, HTTP', async () => {
    fx = await restFixture();
    await fx.link('bot');
    const sent = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content: 'count me' },
    });
    const id = (sent.json as { id: string }).id;
    await until(async () => (await fx.sdk.sends.get(id))?.status === 'read');
    await fx.request('POST', '/api/v1/messages', {
      json: { chatId: '19990009999', content: 'nobody' },
      headers: { prefer: 'wait=5' },
    });
    await fx.request('GET', '/api/v1/clients/nobody/info');
    const res = await fx.request('GET', '/metrics');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    const text = res.text;
    expect(text).to.match(/^wakit_clients\{state="READY"\} 1$/m);
    expect(text).to.match(/^wakit_clients\{state="STOPPED"\} 1$/m);
    expect(text).to.match(/^wakit_queue_depth\{client="bot",kind="pending"\} 0$/m);
    expect(text).to.match(/^wakit_sends_total\{client="bot",outcome="sent",code=""\} 1$/m);
    expect(text).to.match(
      /^wakit_sends_total\{client="bot",outcome="failed",code="CHAT_NOT_FOUND"\} 1$/m,
    );
    expect(text).to.match(/^wakit_send_latency_seconds_count\{client="bot"\} 1$/m);
    expect(text).to.match(
      /^wakit_ack_latency_seconds_count\{client="bot",status="delivered"\} 1$/m,
    );
    expect(text).to.match(/^wakit_ack_latency_seconds_count\{client="bot",status="read"\} 1$/m);
    expect(text).to.match(/^wakit_events_total\{type="ready"\} 1$/m);
    expect(text).to.match(
      /^wakit_http_requests_total\{method="POST",route="\/api\/v1\/messages",status="202"\} 1$/m,
    );
    expect(text).to.match(
      /^wakit_http_requests_total\{method="GET",route="\/api\/v1\/clients\/\{name\}\/info",status="404"\} 1$/m,
    );
    expect(text).to.match(
      /^wakit_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/messages"\} 2$/m,
    );
    const scoped = await fx.request('GET', '/metrics', { token: SCOPED_TOKEN });
    expect(scoped.status).to.equal(403);
  });

  it('has no /metrics when metrics are off', async () => {
    fx = await restFixture({ rest: { metrics: false } });
    expect((await fx.request('GET', '/metrics')).status).to.equal(404);
  });
});
