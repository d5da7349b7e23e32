import { expect } from 'chai';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import {
  eventually,
  fleetHarness,
  localClients,
  readyClients,
  type FleetHarness,
} from './fleet-harness.js';

describe('cluster: placement of clients over the nodes of a fleet', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet: FleetHarness;

  before(async () => {
    redis = await RedisServer.start();
    gcs = await FakeGcsServer.start();
  });

  afterEach(async () => {
    await fleet?.dispose();
  });

  after(async () => {
    await gcs?.close();
    await redis?.dispose();
  });

  it('spreads four clients evenly over two nodes, each READY on exactly one', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const clients = ['c1', 'c2', 'c3', 'c4'];
    const a = await fleet.start({ nodeId: 'node-a', clients });
    const b = await fleet.start({ nodeId: 'node-b', clients });
    await eventually(
      '2 + 2 READY',
      () => readyClients(a).length === 2 && readyClients(b).length === 2,
    );
    expect([...localClients(a), ...localClients(b)].sort()).to.deep.equal(clients);
    // every node has every client object; the others know its state and owner
    for (const name of localClients(a)) {
      expect(b.client(name).name).to.equal(name);
      expect(b.cluster!.isLocal(name)).to.equal(false);
      expect((await b.cluster!.ownerOf(name))?.nodeId).to.equal('node-a');
    }
    const nodes = await a.cluster!.nodes();
    expect(nodes.map((n) => n.nodeId)).to.deep.equal(['node-a', 'node-b']);
    await eventually('node records list their clients', async () => {
      const listed = await a.cluster!.nodes();
      return listed.every((n) => n.clients.length === 2);
    });
    expect(a.cluster!.nodeId).to.equal('node-a');
  });

  it('never runs more than maxClients on a node; a node that joins takes the rest', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const clients = ['m1', 'm2', 'm3'];
    const a = await fleet.start({ nodeId: 'cap-a', clients, maxClients: 2 });
    await eventually('two READY on a', () => readyClients(a).length === 2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(localClients(a)).to.have.length(2);
    const unplaced = clients.filter((c) => !localClients(a).includes(c));
    expect(await a.cluster!.ownerOf(unplaced[0])).to.equal(undefined);
    const b = await fleet.start({ nodeId: 'cap-b', clients, maxClients: 2 });
    await eventually('the third READY on b', () => readyClients(b).includes(unplaced[0]));
    expect(localClients(a)).to.have.length(2);
  });

  it('a node that joins gets its share handed over; sessions come back without a QR', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const clients = ['j1', 'j2', 'j3', 'j4'];
    const a = await fleet.start({ nodeId: 'join-a', clients });
    await eventually('all four READY on a', () => readyClients(a).length === 4);
    const b = await fleet.start({ nodeId: 'join-b', clients });
    const qrs: string[] = [];
    for (const client of b.clients) client.on('qr', () => qrs.push(client.name));
    await eventually(
      '2 + 2 READY',
      () => readyClients(a).length === 2 && readyClients(b).length === 2,
    );
    expect(qrs, 'handed-over clients restore their session').to.deep.equal([]);
  });

  it('stop() hands every client over at once: READY on the other node well before the lease TTL', async () => {
    fleet = fleetHarness(redis.url, gcs.url, { ttlMs: 30_000 });
    const clients = ['s1', 's2', 's3', 's4'];
    const a = await fleet.start({ nodeId: 'stop-a', clients });
    const b = await fleet.start({ nodeId: 'stop-b', clients });
    await eventually(
      '2 + 2 READY',
      () => readyClients(a).length === 2 && readyClients(b).length === 2,
    );
    const qrs: string[] = [];
    for (const client of b.clients) client.on('qr', () => qrs.push(client.name));
    const started = Date.now();
    await a.stop({ drainTimeoutMs: 0 });
    await eventually('all four READY on b', () => readyClients(b).length === 4, 10_000);
    expect(Date.now() - started).to.be.below(10_000);
    expect(qrs).to.deep.equal([]);
    const nodes = await b.cluster!.nodes();
    expect(
      nodes.map((n) => n.nodeId),
      'the stopped node left',
    ).to.deep.equal(['stop-b']);
    const lease = JSON.parse(
      gcs.get('wakit-fleet', `${fleet.prefix}/s1/lease.json`)!.data.toString(),
    ) as {
      holder: string;
    };
    expect(lease.holder, 'the lease holder is the node id').to.equal('stop-b');
  });

  it('a client added at run time is placed once and known on every node; removal too', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const a = await fleet.start({ nodeId: 'rt-a', clients: ['r1'] });
    const b = await fleet.start({ nodeId: 'rt-b', clients: ['r1'] });
    await b.addClient({ name: 'r2', settings: { rest: { webhooks: [] } } });
    await eventually('r2 known on a', () => a.clients.some((c) => c.name === 'r2'));
    await eventually('r1 and r2 READY, one on each', () => {
      const ready = [...readyClients(a), ...readyClients(b)].sort();
      return ready.join() === 'r1,r2' && readyClients(a).length === 1;
    });
    expect(a.listClients().find((c) => c.name === 'r2')?.origin).to.equal('api');
    // a node started later finds it in the registry
    const c = await fleet.start({ nodeId: 'rt-c', clients: ['r1'] });
    expect(c.clients.map((x) => x.name).sort()).to.deep.equal(['r1', 'r2']);
    await a.removeClient('r2');
    await eventually('r2 forgotten everywhere', () =>
      [b, c].every((sdk) => !sdk.clients.some((x) => x.name === 'r2')),
    );
    await eventually('r2 has no owner', async () => (await a.cluster!.ownerOf('r2')) === undefined);
  });

  it('spreads six clients over three nodes, two each', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const clients = ['t1', 't2', 't3', 't4', 't5', 't6'];
    const nodes = [
      await fleet.start({ nodeId: 'three-a', clients }),
      await fleet.start({ nodeId: 'three-b', clients }),
      await fleet.start({ nodeId: 'three-c', clients }),
    ];
    await eventually('2 + 2 + 2 READY', () => nodes.every((sdk) => readyClients(sdk).length === 2));
    expect(nodes.flatMap((sdk) => localClients(sdk)).sort()).to.deep.equal(clients);
  });

  it('keeps clients running while Redis is down, and carries on when it is back', async () => {
    fleet = fleetHarness(redis.url, gcs.url);
    const clients = ['o1', 'o2'];
    const a = await fleet.start({ nodeId: 'outage-a', clients });
    const b = await fleet.start({ nodeId: 'outage-b', clients });
    await eventually(
      '1 + 1 READY',
      () => readyClients(a).length === 1 && readyClients(b).length === 1,
    );
    const before = { a: readyClients(a), b: readyClients(b) };
    await redis.restart({ downMs: 1_500, hard: true });
    expect({ a: readyClients(a), b: readyClients(b) }, 'nothing stopped while down').to.deep.equal(
      before,
    );
    // back: claims are renewed (or taken again) and each client runs on exactly one node
    await eventually('claims back', async () => {
      const owners = await Promise.all(clients.map((c) => a.cluster!.ownerOf(c))).catch(
        () => [undefined], // not reconnected yet
      );
      return owners.every((o) => o !== undefined);
    });
    await eventually(
      '1 + 1 READY again',
      () => readyClients(a).length === 1 && readyClients(b).length === 1,
    );
    expect([...readyClients(a), ...readyClients(b)].sort()).to.deep.equal(clients);
  });
});
