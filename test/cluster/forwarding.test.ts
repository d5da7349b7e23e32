import { expect } from 'chai';
import { launchChromium } from '../helpers/chromium.js';
import type { Sdk } from '../../src/index.js';
import { validateJson } from '../helpers/rest-json-schema.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import { eventually, fleetHarness, readyClients, type FleetHarness } from './fleet-harness.js';

const ADMIN = 'fleet-admin-token-0123456789abcdef0123456789';
const SCOPED = 'fleet-scoped-token-0123456789abcdef012345678';

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

async function call(
  base: string,
  method: string,
  route: string,
  options: { token?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? ADMIN}`,
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    json: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

describe('cluster: one API on every node (forwarding) and GET /api/v1/cluster', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet: FleetHarness;
  let a: Sdk;
  let b: Sdk;
  const url = new Map<Sdk, string>();
  const rest = {
    metrics: true,
    tokens: [
      { token: ADMIN, clients: ['*'] },
      { token: SCOPED, clients: ['k1'] },
    ],
  };

  before(async () => {
    redis = await RedisServer.start();
    gcs = await FakeGcsServer.start();
    fleet = fleetHarness(redis.url, gcs.url);
    // three clients, one per node at most: k1 and k2 are placed, one stays unplaced
    const clients = ['k1', 'k2', 'k3'];
    a = await fleet.start({ nodeId: 'rest-a', clients, maxClients: 1, rest });
    b = await fleet.start({ nodeId: 'rest-b', clients, maxClients: 1, rest });
    await eventually(
      'one READY on each',
      () => readyClients(a).length === 1 && readyClients(b).length === 1,
    );
    for (const sdk of [a, b]) url.set(sdk, fleet.urlOf(sdk));
  });

  after(async () => {
    await fleet?.dispose();
    await gcs?.close();
    await redis?.dispose();
  });

  it("answers a client route on the node that does not run it with the owner's answer", async () => {
    const [onA] = readyClients(a);
    const res = await call(url.get(b)!, 'GET', `/api/v1/clients/${onA}/info`);
    expect(res.status).to.equal(200);
    expect(res.json.status).to.equal('READY');
    expect(res.json.name).to.equal(onA);
    expect(res.headers.get('x-wakit-node')).to.equal('rest-a');
    // locally the non-owner's object of that client is not running
    expect(b.client(onA).state).to.not.equal('READY');
    // the list on any node shows where each client runs and its state there
    // (states reach other nodes within a heartbeat)
    await eventually("the list on b shows a's client READY on rest-a", async () => {
      const list = await call(url.get(b)!, 'GET', '/api/v1/clients');
      const items = list.json as unknown as { name: string; status: string; node: string | null }[];
      const item = items.find((c) => c.name === onA);
      return item?.node === 'rest-a' && item.status === 'READY';
    });
    // token checks happen before forwarding
    const forbidden = await call(url.get(b)!, 'GET', `/api/v1/clients/${onA}/info`, {
      token: onA === 'k1' ? 'x'.repeat(40) : SCOPED,
    });
    expect(forbidden.status).to.be.oneOf([401, 403]);
  });

  it('forwards bodies (a send with Prefer: wait) and queries (a client named in ?client=)', async () => {
    const [onA] = readyClients(a);
    b.simulator.phone('15550009999', { pushname: 'Zed' });
    a.simulator.phone('15550009999', { pushname: 'Zed' });
    const res = await call(url.get(b)!, 'POST', `/api/v1/clients/${onA}/messages`, {
      json: { chatId: '15550009999', content: 'hello from any node' },
      headers: { prefer: 'wait=10' },
    });
    expect(res.status, JSON.stringify(res.json)).to.equal(201);
    expect(res.headers.get('x-wakit-node')).to.equal('rest-a');
    // the client named in the query: forwarded with its query
    const chats = await call(url.get(b)!, 'GET', `/api/v1/chats?client=${onA}&limit=5`);
    expect(chats.status, JSON.stringify(chats.json)).to.equal(200);
    expect(chats.headers.get('x-wakit-node')).to.equal('rest-a');
    expect(JSON.stringify(chats.json)).to.contain('15550009999');
  });

  it('never forwards a forwarded request again: 503 CLIENT_UNAVAILABLE', async () => {
    const [onA] = readyClients(a);
    const res = await call(url.get(b)!, 'GET', `/api/v1/clients/${onA}/info`, {
      headers: { 'x-wakit-forwarded-by': 'rest-c' },
    });
    expect(res.status).to.equal(503);
    expect(res.json.code).to.equal('CLIENT_UNAVAILABLE');
    expect(String(res.headers.get('content-type'))).to.contain('application/problem+json');
  });

  it('answers 503 CLIENT_UNAVAILABLE with Retry-After when no node runs the client', async () => {
    const placed = [...readyClients(a), ...readyClients(b)];
    const unplaced = ['k1', 'k2', 'k3'].find((c) => !placed.includes(c))!;
    const res = await call(url.get(a)!, 'GET', `/api/v1/clients/${unplaced}/info`);
    expect(res.status).to.equal(503);
    expect(res.json.code).to.equal('CLIENT_UNAVAILABLE');
    expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
    expect(JSON.stringify(res.json)).to.not.match(/\bat .*\.ts:\d+/);
  });

  it('GET /api/v1/cluster: nodes, their clients, owners and claim expiry, per the OpenAPI document', async () => {
    const [onB] = readyClients(b);
    // A node publishes its clients' states to the fleet after they change: the view follows.
    await eventually('the READY state of the client on rest-b reaches rest-a', async () => {
      const view = await call(url.get(a)!, 'GET', '/api/v1/cluster');
      const listed = view.json.clients as { name: string; state: string | null }[] | undefined;
      return listed?.find((c) => c.name === onB)?.state === 'READY';
    });
    const res = await call(url.get(a)!, 'GET', '/api/v1/cluster');
    expect(res.status).to.equal(200);
    const doc = (await call(url.get(a)!, 'GET', '/api/v1/openapi.json')).json;
    const schema = (doc as { components: { schemas: Record<string, unknown> } }).components.schemas
      .ClusterOverview as Record<string, unknown>;
    expect(validateJson(schema, res.json, doc)).to.deep.equal([]);
    expect(res.json.mode).to.equal('fleet');
    expect(res.json.nodeId).to.equal('rest-a');
    const nodes = res.json.nodes as { nodeId: string; url: string; clients: string[] }[];
    expect(nodes.map((n) => n.nodeId)).to.deep.equal(['rest-a', 'rest-b']);
    expect(nodes.find((n) => n.nodeId === 'rest-b')!.url).to.equal(url.get(b));
    const clients = res.json.clients as {
      name: string;
      node: string | null;
      state: string | null;
      claimExpiresAt: string | null;
    }[];
    const entry = clients.find((c) => c.name === onB)!;
    expect(entry.node).to.equal('rest-b');
    expect(entry.state).to.equal('READY');
    expect(Date.parse(entry.claimExpiresAt!)).to.be.above(Date.now());
    expect(clients.filter((c) => c.node === null)).to.have.length(1);
    // the session lease in GCS names the node and its address
    const lease = JSON.parse(
      gcs.get('wakit-fleet', `${fleet.prefix}/${onB}/lease.json`)!.data.toString(),
    ) as { holder: string; url?: string };
    expect(lease).to.deep.include({ holder: 'rest-b', url: url.get(b) });

    const scoped = await call(url.get(b)!, 'GET', '/api/v1/cluster', { token: SCOPED });
    expect((scoped.json.clients as { name: string }[]).map((c) => c.name)).to.deep.equal(['k1']);
    for (const node of scoped.json.nodes as { clients: string[] }[]) {
      expect(node.clients.every((c) => c === 'k1')).to.equal(true);
    }
    const anonymous = await fetch(`${url.get(a)!}/api/v1/cluster`);
    expect(anonymous.status).to.equal(401);
  });

  it('/metrics carries the fleet gauges', async () => {
    const res = await fetch(`${url.get(a)!}/metrics`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    const text = await res.text();
    expect(text).to.match(/^wakit_cluster_nodes 2$/m);
    expect(text).to.match(/^wakit_cluster_clients\{node="rest-a"\} 1$/m);
    expect(text).to.match(/^wakit_outbox_depth\{client="k1"\} \d+$/m);
  });

  it('the dashboard of any node shows the node running each client', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${url.get(b)!}/`);
      await page.fill('#token-input', ADMIN);
      await page.click('#token-save');
      const [onA] = readyClients(a);
      const line = page.locator(`.client[data-name="${onA}"] .node`);
      await line.waitFor({ timeout: 10_000 });
      expect(await line.textContent()).to.equal('on node rest-a');
      const [onB] = readyClients(b);
      expect(await page.locator(`.client[data-name="${onB}"] .node`).textContent()).to.equal(
        'on node rest-b',
      );
    } finally {
      await browser.close();
    }
  });
});
