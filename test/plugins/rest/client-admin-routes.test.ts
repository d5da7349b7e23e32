import { expect } from 'chai';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { signStandard } from '../../../plugins/rest/events/webhooks.js';
import { documentedResponse, validateJson } from '../../helpers/rest-json-schema.js';
import {
  CONTACT,
  SCOPED_TOKEN,
  restFixture,
  type RestFixture,
  type TestResponse,
} from '../../helpers/rest-harness.js';

const SECRET = 'client-webhook-secret-0123456789';

interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; event: string; client: string; at: string; data: Record<string, unknown> };
}

/** A local receiver; `answer(n)` gives the status of the n-th request (0-based). */
async function receiver(answer: (n: number) => number = () => 204) {
  const received: Delivery[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const n = received.length;
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body,
        json: JSON.parse(body) as Delivery['json'],
      });
      res.writeHead(answer(n)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(check: () => boolean, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type Doc = Parameters<typeof validateJson>[2] & {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

describe('REST: clients at run time', function () {
  this.timeout(30_000);
  let fx: RestFixture;
  let doc: Doc;
  let hooks: Awaited<ReturnType<typeof receiver>>;

  /** Validates a real response against the served OpenAPI document; returns it. */
  function conforms(method: string, template: string, res: TestResponse): TestResponse {
    const op = doc.paths[template]?.[method];
    expect(op, `${method} ${template} documented`).to.not.equal(undefined);
    const response = documentedResponse(doc, method, template, res.status)!;
    expect(response, `${method} ${template} documents ${res.status}: ${res.text}`).to.not.equal(
      undefined,
    );
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    const media = response.content?.[type];
    expect(media, `${method} ${template} ${res.status} documents ${type}`).to.not.equal(undefined);
    const errors = validateJson(media!.schema as Record<string, unknown>, res.json, doc);
    expect(errors, `${method} ${template}: ${res.text.slice(0, 300)}`).to.deep.equal([]);
    return res;
  }

  async function call(
    method: string,
    template: string,
    route: string,
    init: Parameters<RestFixture['request']>[2] = {},
  ): Promise<TestResponse> {
    return conforms(method.toLowerCase(), template, await fx.request(method, route, init));
  }

  /** Waits for the client's QR, scans it as `phone`, waits for READY. */
  async function scanAs(name: string, phone: string): Promise<void> {
    const client = fx.sdk.client(name);
    await until(() => client.state === 'SCAN_QR');
    const qr = await call('GET', '/api/v1/clients/{name}/qr', `/api/v1/clients/${name}/qr`);
    expect(qr.status).to.equal(200);
    const text = await fx.request('GET', `/api/v1/clients/${name}/qr?format=text`);
    fx.sdk.simulator.scan(text.text, { phone });
    await client.waitUntilReady({ timeoutMs: 5_000 });
  }

  beforeEach(async () => {
    hooks = await receiver();
    fx = await restFixture({
      start: true,
      rest: { clientWebhooks: { allowPrivateNetworks: true } },
    });
    doc = (await fx.request('GET', '/api/v1/openapi.json', { token: null })).json as Doc;
  });
  afterEach(async () => {
    await fx.close();
    await hooks.close();
  });

  it('create → QR → READY → send → restart → delete keeping the session → create again → delete with the session', async () => {
    const created = await call('POST', '/api/v1/clients', '/api/v1/clients', {
      json: { name: 'sales' },
    });
    expect(created.status).to.equal(201);
    expect(created.headers.get('location')).to.equal('/api/v1/clients/sales/info');
    expect(created.json).to.deep.include({ name: 'sales', origin: 'api', webhooks: 0 });
    await scanAs('sales', '15550000031');

    const sent = await call(
      'POST',
      '/api/v1/clients/{name}/messages',
      '/api/v1/clients/sales/messages',
      { json: { chatId: CONTACT, content: 'from a run-time client' } },
    );
    expect(sent.status).to.equal(202);
    await until(() =>
      fx.sdk.simulator.phone(CONTACT).inbox.some((m) => m.body === 'from a run-time client'),
    );

    const list = await call('GET', '/api/v1/clients', '/api/v1/clients');
    const sales = (list.json as { name: string }[]).find((c) => c.name === 'sales');
    expect(sales).to.deep.include({ status: 'READY', origin: 'api', webhooks: 0 });
    expect(sales).to.have.nested.property('me.id', '15550000031@c.us');

    let qrs = 0;
    fx.sdk.client('sales').on('qr', () => qrs++);
    const restarted = await call(
      'POST',
      '/api/v1/clients/{name}/restart',
      '/api/v1/clients/sales/restart',
    );
    expect(restarted.status).to.equal(202);
    await fx.sdk.client('sales').waitUntilReady({ timeoutMs: 5_000 });
    expect(qrs, 'restart restores the session').to.equal(0);

    const session = path.join(fx.dir, 'sales');
    const refused = await call(
      'DELETE',
      '/api/v1/clients/{name}',
      '/api/v1/clients/sales?deleteSession=true',
    );
    expect(refused.status).to.equal(400);
    expect(refused.json).to.deep.include({ code: 'VALIDATION_FAILED' });
    expect(fx.sdk.client('sales').state, 'a refused delete changes nothing').to.equal('READY');

    const kept = await call('DELETE', '/api/v1/clients/{name}', '/api/v1/clients/sales');
    expect(kept.json).to.deep.equal({ name: 'sales', sessionDeleted: false });
    expect(await stat(session).then(() => true)).to.equal(true);
    const after = await fx.request('GET', '/api/v1/clients');
    expect((after.json as { name: string }[]).map((c) => c.name)).to.deep.equal(['bot', 'other']);
    expect((await fx.request('GET', '/api/v1/clients/sales/info')).status).to.equal(404);

    await call('POST', '/api/v1/clients', '/api/v1/clients', { json: { name: 'sales' } });
    await fx.sdk.client('sales').waitUntilReady({ timeoutMs: 5_000 });

    const gone = await call(
      'DELETE',
      '/api/v1/clients/{name}',
      '/api/v1/clients/sales?deleteSession=true&confirm=sales',
    );
    expect(gone.json).to.deep.equal({ name: 'sales', sessionDeleted: true });
    expect(
      await stat(session).then(
        () => true,
        () => false,
      ),
    ).to.equal(false);
  });

  it('answers bad names, names in use and configured clients with coded problems', async () => {
    for (const json of [
      { name: 'a b' },
      { name: '' },
      { name: 'x'.repeat(65) },
      {},
      { name: 'ok', extra: 1 },
    ]) {
      const res = await call('POST', '/api/v1/clients', '/api/v1/clients', { json });
      expect(res.status, JSON.stringify(json)).to.equal(400);
      expect(res.json).to.deep.include({ code: 'VALIDATION_FAILED' });
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    }
    const taken = await call('POST', '/api/v1/clients', '/api/v1/clients', {
      json: { name: 'bot' },
    });
    expect(taken.status).to.equal(409);
    expect(taken.json).to.deep.include({ code: 'CLIENT_EXISTS' });

    const configured = await call('DELETE', '/api/v1/clients/{name}', '/api/v1/clients/bot');
    expect(configured.status).to.equal(409);
    expect(configured.json).to.deep.include({ code: 'CLIENT_NOT_MANAGED' });
    expect(fx.sdk.client('bot').name).to.equal('bot');

    const hooksOfConfigured = await call(
      'PUT',
      '/api/v1/clients/{name}/webhooks',
      '/api/v1/clients/bot/webhooks',
      { json: { webhooks: [] } },
    );
    expect(hooksOfConfigured.status).to.equal(409);
    expect(hooksOfConfigured.json).to.deep.include({ code: 'CLIENT_NOT_MANAGED' });

    const unknown = await call('DELETE', '/api/v1/clients/{name}', '/api/v1/clients/nobody');
    expect(unknown.status).to.equal(404);
    expect(unknown.json).to.deep.include({ code: 'CLIENT_NOT_FOUND' });
    expect(
      (await call('POST', '/api/v1/clients/{name}/restart', '/api/v1/clients/nobody/restart'))
        .status,
    ).to.equal(404);
    const badName = await call('DELETE', '/api/v1/clients/{name}', '/api/v1/clients/a%20b');
    expect(badName.status).to.equal(400);
  });

  it('only tokens for all clients create, delete and see webhooks; scoped tokens see and restart their own', async () => {
    await call('POST', '/api/v1/clients', '/api/v1/clients', { json: { name: 'sales' } });
    const token = SCOPED_TOKEN; // clients: ['other']
    for (const [method, template, route, json] of [
      ['POST', '/api/v1/clients', '/api/v1/clients', { name: 'mine' }],
      ['DELETE', '/api/v1/clients/{name}', '/api/v1/clients/sales', undefined],
      ['DELETE', '/api/v1/clients/{name}', '/api/v1/clients/other', undefined],
      ['GET', '/api/v1/clients/{name}/webhooks', '/api/v1/clients/sales/webhooks', undefined],
      [
        'PUT',
        '/api/v1/clients/{name}/webhooks',
        '/api/v1/clients/sales/webhooks',
        { webhooks: [] },
      ],
      ['POST', '/api/v1/clients/{name}/restart', '/api/v1/clients/sales/restart', undefined],
      ['GET', '/api/v1/clients/{name}/info', '/api/v1/clients/sales/info', undefined],
    ] as const) {
      const res = await call(method, template, route, { token, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${route}`).to.equal(403);
      expect(res.json).to.deep.include({ code: 'FORBIDDEN' });
    }
    expect(fx.sdk.clients.map((c) => c.name)).to.deep.equal(['bot', 'other', 'sales']);
    const list = await call('GET', '/api/v1/clients', '/api/v1/clients', { token });
    expect((list.json as { name: string }[]).map((c) => c.name)).to.deep.equal(['other']);
    const restart = await call(
      'POST',
      '/api/v1/clients/{name}/restart',
      '/api/v1/clients/other/restart',
      { token },
    );
    expect(restart.status).to.equal(202);
    expect(
      (await fx.request('POST', '/api/v1/clients', { token: null, json: { name: 'x' } })).status,
    ).to.equal(401);
  });

  it('delivers per-client webhooks, signed and retried like configured ones, and follows changes at run time', async () => {
    // /b fails its first delivery once: it is retried with the same id
    let bFailed = false;
    await hooks.close();
    hooks = await receiver(() => 204);
    const answers = (d: Delivery): number => {
      if (d.path === '/b' && !bFailed) {
        bFailed = true;
        return 500;
      }
      return 204;
    };
    await hooks.close();
    hooks = await receiver((n) => answers(hooks.received[n]));
    const created = await call('POST', '/api/v1/clients', '/api/v1/clients', {
      json: {
        name: 'hooked',
        webhooks: [{ url: `${hooks.url}/a`, secret: SECRET, events: ['state', 'ready'] }],
      },
    });
    expect(created.status).to.equal(201);
    expect(created.json).to.deep.include({ webhooks: 1 });

    const shown = await call(
      'GET',
      '/api/v1/clients/{name}/webhooks',
      '/api/v1/clients/hooked/webhooks',
    );
    expect(shown.text).to.not.include(SECRET);
    expect(shown.json).to.deep.equal({
      name: 'hooked',
      webhooks: [
        {
          url: `${hooks.url}/a`,
          events: ['state', 'ready'],
          secret: '********',
          maxAttempts: 5,
          backoffMs: 1_000,
          maxBackoffMs: 60_000,
          timeoutMs: 10_000,
          maxPending: 1_000,
        },
      ],
    });

    await scanAs('hooked', '15550000041');
    await until(() => hooks.received.some((d) => d.json.event === 'ready'));
    expect(hooks.received.every((d) => d.path === '/a')).to.equal(true);
    expect(new Set(hooks.received.map((d) => d.json.client))).to.deep.equal(new Set(['hooked']));
    expect(hooks.received.map((d) => d.json.event)).to.include.members(['state', 'ready']);
    for (const d of hooks.received) {
      const id = String(d.headers['webhook-id']);
      const timestamp = Number(d.headers['webhook-timestamp']);
      expect(d.headers['webhook-signature']).to.equal(signStandard(SECRET, id, timestamp, d.body));
      expect(d.headers['x-wakit-event']).to.equal(d.json.event);
    }

    // changed at run time: new events go to /b only
    const changed = await call(
      'PUT',
      '/api/v1/clients/{name}/webhooks',
      '/api/v1/clients/hooked/webhooks',
      {
        json: {
          webhooks: [{ url: `${hooks.url}/b`, secret: SECRET, events: ['state'], backoffMs: 10 }],
        },
      },
    );
    expect(changed.status).to.equal(200);
    expect(changed.text).to.not.include(SECRET);
    expect(changed.json).to.have.nested.property('webhooks[0].url', `${hooks.url}/b`);
    const before = hooks.received.length;
    await call('POST', '/api/v1/clients/{name}/restart', '/api/v1/clients/hooked/restart');
    await fx.sdk.client('hooked').waitUntilReady({ timeoutMs: 5_000 });
    await until(() => hooks.received.some((d) => d.path === '/b' && d.json.data.to === 'READY'));
    const toB = hooks.received.slice(before);
    expect(toB.every((d) => d.path === '/b' && d.json.event === 'state')).to.equal(true);
    const [first] = toB;
    expect(first.headers['x-wakit-attempt']).to.equal('1');
    await until(() => hooks.received.some((d) => d.headers['x-wakit-attempt'] === '2'));
    const retry = hooks.received.find((d) => d.headers['x-wakit-attempt'] === '2');
    expect(retry?.headers['webhook-id'], 'a retry keeps the delivery id').to.equal(
      first.headers['webhook-id'],
    );
    expect(retry?.path).to.equal('/b');

    // emptied: events after that are not delivered
    await call('PUT', '/api/v1/clients/{name}/webhooks', '/api/v1/clients/hooked/webhooks', {
      json: { webhooks: [] },
    });
    const emptiedAt = new Date().toISOString();
    await call('POST', '/api/v1/clients/{name}/restart', '/api/v1/clients/hooked/restart');
    await fx.sdk.client('hooked').waitUntilReady({ timeoutMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hooks.received.filter((d) => d.json.at >= emptiedAt)).to.deep.equal([]);
    const list = await call('GET', '/api/v1/clients', '/api/v1/clients');
    expect((list.json as { name: string }[]).find((c) => c.name === 'hooked')).to.deep.include({
      webhooks: 0,
    });
  });
});

describe('REST: per-client webhooks and the address policy', function () {
  this.timeout(30_000);
  let fx: RestFixture;

  afterEach(async () => {
    await fx.close();
  });

  it('refuses loopback and private webhook targets unless clientWebhooks.allowPrivateNetworks', async () => {
    fx = await restFixture({ start: true, rest: { clientWebhooks: { maxPerClient: 2 } } });
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://localhost:9/x',
      'http://10.1.2.3/x',
      'http://[::1]:9/x',
      'http://169.254.169.254/latest',
    ]) {
      const res = await fx.request('POST', '/api/v1/clients', {
        json: { name: 'sales', webhooks: [{ url, secret: SECRET }] },
      });
      expect(res.status, url).to.equal(400);
      expect(res.json).to.deep.include({ code: 'VALIDATION_FAILED' });
      expect(JSON.stringify(res.json)).to.include('webhooks.0.url');
    }
    expect(fx.sdk.clients.map((c) => c.name)).to.deep.equal(['bot', 'other']);
    const many = await fx.request('POST', '/api/v1/clients', {
      json: {
        name: 'sales',
        webhooks: [1, 2, 3].map((n) => ({ url: `https://hooks.example/${n}`, secret: SECRET })),
      },
    });
    expect(many.status).to.equal(400);
    expect(many.text).to.include('at most 2 webhooks');

    // stored past the API check (e.g. by an older version): refused at delivery, nothing is sent
    const hooks = await receiver();
    try {
      await fx.sdk.addClient({
        name: 'sneaky',
        settings: {
          rest: {
            webhooks: [{ url: `${hooks.url}/x`, secret: SECRET, backoffMs: 1, maxAttempts: 2 }],
          },
        },
      });
      const failed = async (): Promise<number> => {
        const text = (await fx.request('GET', '/metrics')).text;
        return Number(
          /wakit_webhook_deliveries_total\{outcome="failed"\} (\d+)/.exec(text)?.[1] ?? 0,
        );
      };
      const deadline = Date.now() + 8_000;
      while ((await failed()) === 0) {
        if (Date.now() > deadline) throw new Error('no delivery failed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(hooks.received).to.deep.equal([]);
    } finally {
      await hooks.close();
    }
  });
});
