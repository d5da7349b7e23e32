/**
 * Two whole SDK nodes (child processes, fleet mode on one real Redis) spend one budget per account:
 * sends accepted on both nodes, and the client moving from one node to the other, never send more
 * than the account's budget in total.
 */
import { expect } from 'chai';
import { killAll, eventually } from '../faults/child-server.js';
import { Fleet, type FleetNode } from '../faults/fault-fleet-harness.js';

const LEASE = { ttlMs: 6_000, renewMs: 1_000, retryMs: 250 };
const PHONES = Array.from({ length: 12 }, (_, n) => `1555700${String(n).padStart(4, '0')}`);
const BUDGET = 5;
const governor = { preset: 'standard', newContactsPerDay: BUDGET, warmupDays: 0 };

interface Info {
  governor: { deferred: number; used: { newContactsPerDay: number } } | null;
}

describe('governor: a fleet of two SDK nodes shares one budget per account (real processes, Redis)', function () {
  this.timeout(120_000);
  let fleet: Fleet;
  after(async () => {
    await killAll();
    await fleet?.close();
  });

  it(`${PHONES.length} sends to new contacts accepted on both nodes, the client moved between them: ${BUDGET} sent in all`, async () => {
    fleet = await Fleet.start(['bot'], LEASE);
    const nodes: FleetNode[] = [];
    for (const id of ['n1', 'n2']) {
      nodes.push(await fleet.startNode(id, { phones: PHONES, governor }));
    }
    const [first, second] = nodes as [FleetNode, FleetNode];
    expect(await eventually(() => fleet.placement(nodes).has('bot'), 20_000)).to.equal(true);
    const owner = fleet.placement(nodes).get('bot') === 'n1' ? first : second;
    const other = owner === first ? second : first;
    const accept = async (node: FleetNode, n: number) => {
      const res = await node.request('POST', '/api/v1/messages', {
        json: { client: 'bot', chatId: PHONES[n], content: `bulk-${n}` },
      });
      expect(res.status, JSON.stringify(res.json)).to.equal(202);
    };
    // half accepted by each node (into the shared outbox; the owner sends)
    for (let n = 0; n < 8; n++) await accept(n % 2 === 0 ? owner : other, n);
    const infoOf = async (node: FleetNode) =>
      ((await node.request('GET', '/api/v1/clients/bot/info')).json as Info).governor;
    expect(
      await eventually(async () => (await infoOf(owner))?.deferred === 8 - BUDGET, 20_000),
    ).to.equal(true);
    expect(fleet.received()).to.have.length(BUDGET);
    // the owner stops: the other node runs the client now, with the same spent budget
    await owner.kill('SIGTERM');
    expect(await eventually(() => fleet.readyOn(other).includes('bot'), 20_000)).to.equal(true);
    for (let n = 8; n < PHONES.length; n++) await accept(other, n);
    expect(
      await eventually(
        async () => (await infoOf(other))?.deferred === PHONES.length - BUDGET,
        20_000,
      ),
    ).to.equal(true);
    const info = await infoOf(other);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = fleet.received().length;
    console.log(
      `      fleet of 2 SDK nodes: accepted ${PHONES.length} (on both nodes), budget ${BUDGET} new contacts, ` +
        `sent ${sent}, deferred ${info?.deferred}, used ${info?.used.newContactsPerDay}`,
    );
    expect(sent).to.equal(BUDGET);
    expect(info?.used.newContactsPerDay).to.equal(BUDGET);
  });
});
