import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { compareStreamIds, type ClusterView } from '../../src/entries/cluster.js';
import { RedisEventStream } from '../../src/cluster/redis-event-stream.js';
import { WEBHOOK_GROUP } from '../../plugins/rest/server.js';
import {
  ADMIN_TOKEN,
  BOT_PHONE,
  CONTACT,
  OTHER_PHONE,
  readEvents,
  restFixture,
  type RestFixture,
  type SseEvent,
} from '../helpers/rest-harness.js';
import { RedisServer } from '../helpers/redis-server.js';

const ALPHA_TOKEN = 'alpha-token-0123456789abcdef0123456789';
const SECRET = 'webhook-secret-0123456789';

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** A local webhook receiver answering 200, keeping each body. */
async function receiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function streamIds(events: SseEvent[]): string[] {
  return events.map((e) => e.id ?? '');
}

describe('cluster: REST events through the fleet stream (SSE on any node, webhooks once)', function () {
  this.timeout(30_000);
  let redis: RedisServer;
  let admin: Redis;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const nodes: { fx: RestFixture; stream: RedisEventStream }[] = [];
  let prefix = '';
  let n = 0;

  /** A node: an Sdk with one simulator client and a REST server whose host has a fleet view. */
  async function node(nodeId: string, client: string): Promise<RestFixture> {
    const stream = new RedisEventStream({
      url: redis.url,
      keyPrefix: prefix,
      nodeId,
      blockMs: 500,
    });
    const cluster: ClusterView = {
      nodeId,
      events: stream,
      ownerOf: () => Promise.resolve(undefined),
      nodes: () => Promise.resolve([]),
      // each node runs its own client only
      isLocal: (name) => name === client,
      advertise: () => undefined,
      stateOf: () => undefined,
      nodeOf: () => undefined,
    };
    const fx = await restFixture({
      clients: [client],
      cluster,
      rest: {
        tokens: [
          { token: ADMIN_TOKEN, clients: ['*'] },
          { token: ALPHA_TOKEN, clients: ['alpha'] },
        ],
        webhooks: [{ url: hook.url, secret: SECRET, events: ['ready', 'message.create'] }],
      },
    });
    nodes.push({ fx, stream });
    await stream.ready();
    return fx;
  }

  /** Sends through a node and waits until its `message.create` is in the fleet's stream. */
  async function send(fx: RestFixture, content: string): Promise<void> {
    const res = await fx.request('POST', '/api/v1/messages', {
      json: { chatId: CONTACT, content },
      headers: { prefer: 'wait=5' },
    });
    expect(res.status).to.equal(201);
    // nodes publish concurrently: the fleet's order is the order Redis got them in
    await until(async () =>
      (await nodes[0].stream.since('0')).some(
        (e) => e.event === 'message.create' && (e.data as { body?: string }).body === content,
      ),
    );
  }

  before(async () => {
    redis = await RedisServer.start();
    admin = new Redis(redis.url);
    admin.on('error', () => undefined);
  });
  beforeEach(async () => {
    prefix = `f${++n}`;
    hook = await receiver();
  });
  afterEach(async () => {
    for (const { fx, stream } of nodes.splice(0)) {
      await fx.close();
      await stream.close();
    }
    await hook.close();
  });
  after(async () => {
    admin.disconnect();
    await redis.dispose();
  });

  it('an SSE stream on node B gets node A’s client events in fleet order; a scoped token only its clients', async () => {
    const a = await node('a', 'alpha');
    const b = await node('b', 'beta');
    const all = readEvents(
      `${b.url}/api/v1/events?types=ready,message.create`,
      { token: ADMIN_TOKEN },
      (e) => e.filter((x) => x.event === 'message.create').length >= 2,
    );
    const scoped = readEvents(
      `${b.url}/api/v1/events?types=ready,message.create`,
      { token: ALPHA_TOKEN },
      (e) => e.some((x) => x.event === 'message.create'),
    );
    await sleep(150);
    // link alpha by hand: the QR it shows reaches node B's hub through the stream
    const alpha = a.sdk.client('alpha');
    const qr = new Promise<string>((resolve) => alpha.once('qr', resolve));
    expect((await a.request('POST', '/api/v1/clients/alpha/initialize')).status).to.equal(202);
    const shown = await qr;
    await until(() => b.server.hub.qr('alpha') === shown);
    a.sdk.simulator.scan(shown, { phone: BOT_PHONE, pushname: 'Bot alpha' });
    await alpha.waitUntilReady({ timeoutMs: 5_000 });
    await until(() => b.server.hub.qr('alpha') === undefined);
    await b.link('beta', OTHER_PHONE);
    await send(a, 'from alpha');
    await send(b, 'from beta');
    const seen = await all;
    expect(seen.status).to.equal(200);
    expect(seen.events.map((e) => `${e.data.client}:${e.event}`)).to.deep.equal([
      'alpha:ready',
      'beta:ready',
      'alpha:message.create',
      'beta:message.create',
    ]);
    const ids = streamIds(seen.events);
    expect(ids.every((id) => /^\d+-\d+$/.test(id))).to.equal(true);
    expect(seen.events.every((e) => e.data.id === e.id)).to.equal(true);
    const alphaOnly = await scoped;
    expect(alphaOnly.events.map((e) => `${e.data.client}:${e.event}`)).to.deep.equal([
      'alpha:ready',
      'alpha:message.create',
    ]);
    expect(b.server.hub.fleet).to.equal(true);
  });

  it('resumes on node B with a Last-Event-ID from node A: no gap, no repeat, then live', async () => {
    const a = await node('a', 'alpha');
    const b = await node('b', 'beta');
    await a.link('alpha', BOT_PHONE);
    await b.link('beta', OTHER_PHONE);
    const first = readEvents(
      `${a.url}/api/v1/events?types=message.create`,
      { token: ADMIN_TOKEN },
      (e) => e.length >= 1,
    );
    await sleep(150);
    await send(a, 'one');
    const seenOnA = (await first).events;
    expect(seenOnA.map((e) => e.data.data.body)).to.deep.equal(['one']);
    const lastId = seenOnA[0].id!;
    // missed while disconnected, published by both nodes
    await send(a, 'two');
    await send(b, 'three');
    await send(a, 'four');
    const resumed = readEvents(
      `${b.url}/api/v1/events?types=message.create`,
      { token: ADMIN_TOKEN, headers: { 'last-event-id': lastId } },
      (e) => e.length >= 4,
    );
    await sleep(200);
    await send(b, 'five (live)');
    const { events } = await resumed;
    expect(events.map((e) => e.data.data.body)).to.deep.equal([
      'two',
      'three',
      'four',
      'five (live)',
    ]);
    const ids = streamIds(events);
    // strictly increasing, all after the resume point
    [lastId, ...ids].reduce((previous, id) => {
      expect(compareStreamIds(id, previous)).to.be.greaterThan(0);
      return id;
    });

    const bad = await b.request('GET', '/api/v1/events', { headers: { 'last-event-id': '42x' } });
    expect(bad.status).to.equal(400);
  });

  it('a webhook configured on both nodes receives each event exactly once', async () => {
    const a = await node('a', 'alpha');
    const b = await node('b', 'beta');
    await until(async () => {
      const groups = (await admin
        .xinfo('GROUPS', `${prefix}:events`)
        .catch(() => [])) as unknown[][]; // no stream yet
      return groups.some((g) => g[1] === WEBHOOK_GROUP);
    });
    await a.link('alpha', BOT_PHONE);
    await b.link('beta', OTHER_PHONE);
    for (let i = 0; i < 5; i++) {
      await send(a, `a${i}`);
      await send(b, `b${i}`);
    }
    await until(() => hook.bodies.length >= 12);
    await sleep(800);
    const deliveries = hook.bodies.map(
      (body) =>
        JSON.parse(body) as { id: string; event: string; client: string; data: { body?: string } },
    );
    expect(deliveries.length).to.equal(12);
    expect(new Set(deliveries.map((d) => d.id)).size).to.equal(12);
    expect(
      deliveries
        .filter((d) => d.event === 'ready')
        .map((d) => d.client)
        .sort(),
    ).to.deep.equal(['alpha', 'beta']);
    expect(
      deliveries
        .filter((d) => d.event === 'message.create')
        .map((d) => d.data.body)
        .sort(),
    ).to.deep.equal(['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1', 'b2', 'b3', 'b4']);
    const [pending] = (await admin.xpending(`${prefix}:events`, WEBHOOK_GROUP)) as [number];
    expect(pending).to.equal(0);
  });
});
