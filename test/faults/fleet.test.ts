/**
 * Issue 14's proof with real processes: three wakit nodes, six simulator clients, one real Redis
 * (append-only file on) and the GCS fixture. A node is SIGKILLed, Redis is restarted, a node is
 * stopped; every send accepted by any node goes out, none twice beyond the in-flight window.
 */
import { expect } from 'chai';
import { duplicates, eventually, killAll, type Received } from './child-server.js';
import { FLEET_TOKEN, Fleet, PHONE, type FleetNode } from './fault-fleet-harness.js';

const CLIENTS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
const LEASE = { ttlMs: 6_000, renewMs: 1_000, retryMs: 250 };
const SENT = new Set(['sent', 'delivered', 'read', 'played']);

interface Accepted {
  id: string;
  client: string;
  body: string;
}

async function send(node: FleetNode, client: string, body: string): Promise<Accepted> {
  const response = await node.request('POST', '/api/v1/messages', {
    json: { client, chatId: PHONE, content: body },
  });
  expect(
    response.status,
    `${node.nodeId} ${client} ${body}: ${JSON.stringify(response.json)}`,
  ).to.equal(202);
  return { id: (response.json as { id: string }).id, client, body };
}

function bodiesOf(received: Received[]): Set<string> {
  return new Set(received.map((r) => r.body));
}

describe('a fleet of three nodes on Redis (real processes)', function () {
  this.timeout(240_000);
  let fleet: Fleet;
  let nodes: FleetNode[];
  const accepted: Accepted[] = [];
  const sse: { client: string; event: string }[] = [];
  let closeSse: (() => void) | undefined;

  before(async () => {
    fleet = await Fleet.start(CLIENTS, LEASE);
    nodes = [];
    for (const id of ['n1', 'n2', 'n3']) nodes.push(await fleet.startNode(id));
  });

  after(async () => {
    closeSse?.();
    await killAll();
    await fleet?.close();
  });

  it('places the six clients two per node, each READY once, and every node answers /cluster', async () => {
    const spread = await eventually(() => {
      const owners = fleet.placement(nodes);
      const perNode = nodes.map((n) => [...owners.values()].filter((o) => o === n.nodeId).length);
      return owners.size === 6 && perNode.every((count) => count === 2);
    });
    expect(spread, `placement: ${JSON.stringify([...fleet.placement(nodes)])}`).to.equal(true);
    for (const node of nodes) {
      const { status, json } = await node.request('GET', '/api/v1/cluster');
      expect(status).to.equal(200);
      const body = json as { nodes: { nodeId: string; clients: string[] }[] };
      expect(body.nodes.map((n) => n.nodeId).sort()).to.deep.equal(['n1', 'n2', 'n3']);
      expect(body.nodes.flatMap((n) => n.clients).sort()).to.deep.equal(CLIENTS);
    }
    // Any node answers for any client: the info of a client run elsewhere is forwarded to its owner.
    const owners = fleet.placement(nodes);
    for (const node of nodes) {
      const elsewhere = CLIENTS.find((c) => owners.get(c) !== node.nodeId)!;
      const { status, json } = await node.request('GET', `/api/v1/clients/${elsewhere}/info`);
      expect(status, JSON.stringify(json)).to.equal(200);
      expect((json as { status: string }).status).to.equal('READY');
    }
  });

  it('a SIGKILLed node: its clients are READY elsewhere without a QR, every send accepted before and during the failover goes out once', async () => {
    const survivor = nodes[2];
    const abort = new AbortController();
    closeSse = () => abort.abort();
    void (async () => {
      const response = await fetch(`${survivor.url}/api/v1/events`, {
        headers: { authorization: `Bearer ${FLEET_TOKEN}` },
        signal: abort.signal,
      });
      let buffer = '';
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        buffer += Buffer.from(chunk).toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) {
            const event = JSON.parse(data.slice(6)) as { client: string; event: string };
            sse.push({ client: event.client, event: event.event });
          }
        }
      }
    })().catch(() => undefined);

    const owners = fleet.placement(nodes);
    const victim = nodes[0];
    const orphans = CLIENTS.filter((c) => owners.get(c) === victim.nodeId);
    expect(orphans).to.have.length(2);

    for (let i = 0; i < 60; i++) {
      const node = nodes[i % 3];
      accepted.push(await send(node, CLIENTS[i % 6], `A-${i}`));
    }
    const killedAt = Date.now();
    await victim.kill('SIGKILL');
    // During the failover: accepted by the survivors into the shared outbox, for every client.
    for (let i = 0; i < 60; i++) {
      accepted.push(await send(nodes[1 + (i % 2)], CLIENTS[i % 6], `B-${i}`));
    }

    const survivors = nodes.slice(1);
    const tookOver = await eventually(
      () => {
        const now = fleet.placement(survivors);
        return orphans.every((c) => now.has(c));
      },
      LEASE.ttlMs + 5_000 + 5_000,
    );
    const tookMs = Date.now() - killedAt;
    expect(tookOver, `orphans ${orphans.join(',')} not READY elsewhere`).to.equal(true);
    expect(tookMs, 'READY elsewhere within lease TTL + 5 s').to.be.below(LEASE.ttlMs + 5_000);
    for (const node of survivors) {
      const qrs = node.lines.filter((l) => l.event === 'qr' && orphans.includes(String(l.client)));
      expect(qrs, `${node.nodeId} showed a QR for a taken-over client`).to.deep.equal([]);
    }

    const all = await eventually(
      () => accepted.every((a) => bodiesOf(fleet.received()).has(a.body)),
      60_000,
    );
    const got = bodiesOf(fleet.received());
    expect(
      all,
      `missing: ${accepted
        .filter((a) => !got.has(a.body))
        .map((a) => a.body)
        .join(',')}`,
    ).to.equal(true);
    const doubled = duplicates(fleet.received());
    console.log(
      `      fleet: ${accepted.length} accepted (60 before, 60 during the failover), ` +
        `${fleet.received().length} received, ${doubled.size} repeated; ` +
        `${orphans.join('+')} READY elsewhere after ${tookMs} ms; ` +
        `${fleet.deliveries.length} webhook deliveries`,
    );
    // At most the one send in flight per client of the killed node: the at-least-once window.
    expect(doubled.size).to.be.at.most(orphans.length);
    for (const body of doubled.keys()) {
      expect(orphans).to.include(accepted.find((a) => a.body === body)?.client);
    }
    // Every id is known on any node, and sent.
    for (const a of accepted) {
      const { status, json } = await survivor.request('GET', `/api/v1/messages/${a.id}`);
      expect(status).to.equal(200);
      expect(SENT.has((json as { status: string }).status), JSON.stringify(json)).to.equal(true);
    }
    // The SSE stream on a survivor saw every client's events, before and after the failover.
    const seen = new Set(sse.filter((e) => e.event === 'message.create').map((e) => e.client));
    expect([...seen].sort()).to.deep.equal(CLIENTS);
    // Webhooks: once per event for the whole fleet (the receiver dedupes nothing).
    const ids = fleet.deliveries.map((d) => d.id);
    expect(new Set(fleet.deliveries.map((d) => d.client))).to.have.property('size', 6);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated, 'webhook deliveries repeated').to.deep.equal([]);
  });

  it('Redis restarted: accepts fail with 503 STORAGE_UNAVAILABLE while it is down and resume after, nothing accepted lost', async () => {
    const node = nodes[1];
    await fleet.redis.stop();
    const refused = await node.request('POST', '/api/v1/messages', {
      json: { client: 'c1', chatId: PHONE, content: 'while-down' },
    });
    expect(refused.status).to.equal(503);
    expect((refused.json as { code: string }).code).to.equal('STORAGE_UNAVAILABLE');
    await fleet.redis.restart();
    // each survivor reconnects to Redis on its own schedule: wait until each accepts again
    for (const survivor of [nodes[1], nodes[2]]) {
      const body = `R-0-${survivor.nodeId}`;
      let back: { status: number } = { status: 0 };
      await eventually(async () => {
        back = await survivor.request('POST', '/api/v1/messages', {
          json: { client: 'c2', chatId: PHONE, content: body },
        });
        return back.status === 202;
      }, 30_000);
      expect(back.status, `${survivor.nodeId} accepts again after the restart`).to.equal(202);
      accepted.push({ id: '', client: 'c2', body });
    }
    for (let i = 1; i < 12; i++)
      accepted.push(await send(nodes[1 + (i % 2)], CLIENTS[i % 6], `R-${i}`));
    const all = await eventually(
      () => accepted.every((a) => bodiesOf(fleet.received()).has(a.body)),
      60_000,
    );
    expect(all).to.equal(true);
    expect(bodiesOf(fleet.received()).has('while-down'), 'a refused send is never sent').to.equal(
      false,
    );
  });

  it('a node stopped gracefully hands its clients over at once (well before the lease TTL)', async () => {
    const [, leaving, staying] = nodes as [FleetNode, FleetNode, FleetNode];
    // the Redis restart before may have sent clients through a lease renewal: wait until all six
    // are READY again before counting what the leaving node holds
    const settled = await eventually(() => fleet.placement([leaving, staying]).size === 6, 30_000);
    expect(settled, 'all six clients READY after the Redis restart').to.equal(true);
    const mine = fleet.readyOn(leaving);
    expect(mine.length, `clients on ${leaving.nodeId}`).to.be.above(0);
    const stoppedAt = Date.now();
    await leaving.kill('SIGTERM');
    const moved = await eventually(
      () => mine.every((c) => fleet.readyOn(staying).includes(c)),
      20_000,
    );
    expect(moved, `not READY on ${staying.nodeId}: ${mine.join(',')}`).to.equal(true);
    expect(Date.now() - stoppedAt, 'handed over, not left to lapse').to.be.below(LEASE.ttlMs);
    const { json } = await staying.request('GET', '/api/v1/cluster');
    const body = json as { nodes: { nodeId: string; clients: string[] }[] };
    expect(body.nodes.map((n) => n.nodeId)).to.deep.equal([staying.nodeId]);
    expect(body.nodes[0].clients.sort()).to.deep.equal(CLIENTS);
  });
});
