/**
 * Scheduled sends in a fleet, with real processes (docs/scheduling.md): two wakit nodes
 * (test/helpers/fleet-node.ts) on a real redis-server, one client `bot`. 60 sends with `sendAt`
 * spread over the next ~6–21 s are accepted over REST on both nodes (the one not running the client
 * journals them in the shared outbox for the owner); one is cancelled and one rescheduled, on the
 * node that does not run the client. The owner is SIGKILLed while they go out: the other node takes
 * the client over and sends the rest. Counted from what the simulated phone received (written
 * synchronously by the node that sent it, with the time): each sent once, none before its
 * `sendAt`, each within its window, the cancelled one never.
 */
import { expect } from 'chai';
import { duplicates, eventually, killAll } from './child-server.js';
import { Fleet, PHONE, type FleetNode } from './fault-fleet-harness.js';

const LEASE = { ttlMs: 3_000, renewMs: 500, retryMs: 250 };
const COUNT = 60;
const FIRST_MS = 6_000;
const STEP_MS = 250;
/** Late by at most the queue's pacing (10 ms a send here) plus the scheduler's wake-up. */
const LATE_MS = 1_500;
const CANCELLED = 'fleet-sched-045';
const MOVED = 'fleet-sched-005';
const MOVED_MS = FIRST_MS + COUNT * STEP_MS + 500;

const bodyOf = (n: number): string => `fleet-sched-${String(n).padStart(3, '0')}`;

describe('faults: scheduled sends in a fleet of two nodes, the owner SIGKILLed (real processes)', function () {
  this.timeout(150_000);
  let fleet: Fleet;
  let nodes: FleetNode[];

  before(async () => {
    fleet = await Fleet.start(['bot'], LEASE);
    nodes = [];
    for (const id of ['n1', 'n2']) nodes.push(await fleet.startNode(id));
  });

  after(async () => {
    await killAll();
    await fleet?.close();
  });

  it('the other node takes the client over: each sent once, none early, the cancelled one never', async () => {
    const placed = await eventually(() => fleet.placement(nodes).size === 1, 30_000);
    expect(placed, 'bot READY on one node').to.equal(true);
    const owner = nodes.find((n) => n.nodeId === fleet.placement(nodes).get('bot'))!;
    const other = nodes.find((n) => n !== owner)!;

    const t0 = Date.now();
    const sendAt = new Map<string, number>();
    const ids = new Map<string, string>();
    for (let n = 0; n < COUNT; n++) {
      const body = bodyOf(n);
      const at = t0 + FIRST_MS + n * STEP_MS;
      // half accepted by the owner, half by the other node (journaled for the owner)
      const res = await (n % 2 === 0 ? owner : other).request('POST', '/api/v1/messages', {
        json: { client: 'bot', chatId: PHONE, content: body, sendAt: new Date(at).toISOString() },
      });
      expect(res.status, `${body}: ${JSON.stringify(res.json)}`).to.equal(202);
      expect(res.json).to.include({ status: 'scheduled', sendAt: new Date(at).toISOString() });
      sendAt.set(body, at);
      ids.set(body, (res.json as { id: string }).id);
    }
    // on the node that does not run the client: one cancelled, one moved later
    const cancelled = await other.request('POST', `/api/v1/messages/${ids.get(CANCELLED)}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.json)).to.equal(200);
    expect(cancelled.json).to.include({ status: 'cancelled' });
    const movedAt = t0 + MOVED_MS;
    const moved = await other.request('POST', `/api/v1/messages/${ids.get(MOVED)}/reschedule`, {
      json: { sendAt: new Date(movedAt).toISOString() },
    });
    expect(moved.status, JSON.stringify(moved.json)).to.equal(200);
    expect(moved.json).to.include({ status: 'scheduled', sendAt: new Date(movedAt).toISOString() });
    sendAt.set(MOVED, movedAt);
    const listed = await owner.request('GET', '/api/v1/messages?status=scheduled&limit=500');
    expect((listed.json as { items: unknown[] }).items).to.have.length(COUNT - 1);
    expect(fleet.received(), 'accepted within the first 6 s: nothing went yet').to.have.length(0);

    const out = await eventually(() => fleet.received().length >= 15, 60_000);
    expect(out, '15 out before the kill').to.equal(true);
    const killedAt = Date.now();
    expect((await owner.kill('SIGKILL')).signal).to.equal('SIGKILL');
    const beforeKill = fleet.received().length;
    const tookOver = await eventually(
      () => fleet.placement([other]).get('bot') === other.nodeId,
      LEASE.ttlMs + 20_000,
    );
    expect(tookOver, 'bot READY on the other node').to.equal(true);
    const readyAt = Date.now();

    const all = await eventually(
      () => new Set(fleet.received().map((r) => r.body)).size >= COUNT - 1,
      60_000,
    );
    expect(all, 'every scheduled send arrived').to.equal(true);
    // the cancelled one was due at ~17 s, the moved one at ~21.5 s: wait past both
    await eventually(() => Date.now() > t0 + MOVED_MS + 2_000, 60_000);

    const received = fleet.received();
    const twice = duplicates(received);
    const early = received.filter((r) => r.at < sendAt.get(r.body)!);
    const late = received.filter((r) => {
      const due = sendAt.get(r.body)!;
      // due while no node ran the client: it goes right after the take-over
      const window = due >= killedAt - LATE_MS && due <= readyAt ? readyAt - due + 5_000 : LATE_MS;
      return r.at - due > window;
    });
    const bySurvivor = received.filter((r) => r.node === other.nodeId).length;
    const lateness = received.map((r) => r.at - sendAt.get(r.body)!).sort((x, y) => x - y);
    console.log(
      `      fleet scheduled ${COUNT}, cancelled 1, rescheduled 1, out before the kill ${beforeKill}, ` +
        `take-over ${readyAt - killedAt} ms, received ${received.length} ` +
        `(distinct ${new Set(received.map((r) => r.body)).size}; by the survivor ${bySurvivor}), ` +
        `duplicates ${twice.size}, early ${early.length}, ` +
        `lateness median ${lateness[lateness.length >> 1]} ms, max ${lateness.at(-1)} ms`,
    );
    expect(
      received.some((r) => r.body === CANCELLED),
      'the cancelled send',
    ).to.equal(false);
    expect(early.map((r) => `${r.body} ${r.at - sendAt.get(r.body)!} ms`)).to.deep.equal([]);
    expect(late.map((r) => `${r.body} +${r.at - sendAt.get(r.body)!} ms`)).to.deep.equal([]);
    expect(new Set(received.map((r) => r.body)).size).to.equal(COUNT - 1);
    expect(bySurvivor, 'the survivor sent the rest').to.be.greaterThan(0);
    // a kill between WhatsApp taking a message and its `sent` journaled repeats that one
    // (docs/queue.md): at most one, sent by the owner before the kill and by the survivor after
    expect(twice.size, `duplicates: ${JSON.stringify([...twice])}`).to.be.at.most(1);
    for (const [body] of twice) {
      expect(received.filter((r) => r.body === body).map((r) => r.node)).to.deep.equal([
        owner.nodeId,
        other.nodeId,
      ]);
    }
    // the outbox agrees: nothing scheduled any more, the cancelled one `cancelled`
    const left = await other.request('GET', '/api/v1/messages?status=scheduled');
    expect((left.json as { items: unknown[] }).items).to.deep.equal([]);
    const record = await other.request('GET', `/api/v1/messages/${ids.get(CANCELLED)}`);
    expect(record.json).to.include({ status: 'cancelled' });
  });
});
