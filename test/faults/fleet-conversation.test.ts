/**
 * Issue 37 in a fleet, with real processes: two wakit nodes (test/helpers/fleet-node.ts) on a real
 * redis-server (conversations.store `auto`: the fleet's Redis), one client `bot` running the
 * scaffolded order dialog. The node that runs the client is SIGKILLed in the middle of a dialog:
 * the other node takes the client over, the conversation's timer fires there (the reminder, with
 * no message from the person), and the person finishes the dialog from the same step. Ground
 * truth: the file the simulated phones' received messages are appended to (tagged with the node
 * that sent them), across both processes: every bot message is counted by its text.
 */
import { expect } from 'chai';
import type { ConversationInfo } from '../../src/conversations/types.js';
import { eventually, killAll } from './child-server.js';
import { Fleet, PHONE, type FleetNode } from './fault-fleet-harness.js';

const LEASE = { ttlMs: 3_000, renewMs: 500, retryMs: 250 };
const TIMEOUT_SECONDS = 4;
const MENU = 'Which size?\n1. small\n2. medium\n3. large';
const ADDRESS = 'Delivery address?';
const CONFIRM = 'Confirm: a medium order to 1 Main Street? (yes/no)';
const REMINDER = 'Are you still there? Answer the last question, or send "cancel".';
const PLACED = 'Order placed: #1.';
const ORDERS = '#1: medium to 1 Main Street';
const EXPIRED = 'Order expired.';

describe('faults: a conversation in a fleet of two nodes, its owner SIGKILLed (real processes)', function () {
  this.timeout(120_000);
  let fleet: Fleet;
  let nodes: FleetNode[];
  let seq = 0;

  before(async () => {
    fleet = await Fleet.start(['bot'], LEASE);
    nodes = [];
    for (const id of ['n1', 'n2']) {
      nodes.push(await fleet.startNode(id, { order: { timeoutSeconds: TIMEOUT_SECONDS } }));
    }
  });

  after(async () => {
    await killAll();
    await fleet?.close();
  });

  /** What the phone received, by text, across both nodes. */
  const counts = (): Map<string, number> => {
    const counted = new Map<string, number>();
    for (const { body } of fleet.received()) counted.set(body, (counted.get(body) ?? 0) + 1);
    return counted;
  };
  const count = (body: string): number => counts().get(body) ?? 0;
  const sentBy = (body: string): string[] =>
    fleet
      .received()
      .filter((r) => r.body === body)
      .map((r) => r.node);

  /** The person writes `text` to the bot through `node`'s network; the `reply` arrives (its n-th). */
  async function exchange(node: FleetNode, text: string, reply: string, nth = 1): Promise<void> {
    node.command({ cmd: 'send', from: PHONE, client: 'bot', text });
    const arrived = await eventually(() => count(reply) >= nth, 20_000);
    expect(arrived, `the reply to ${JSON.stringify(text)}: ${JSON.stringify(reply)}`).to.equal(
      true,
    );
  }

  async function settle(node: FleetNode): Promise<ConversationInfo[]> {
    const mine = ++seq;
    node.command({ cmd: 'settle', seq: mine, client: 'bot' });
    const line = await node.waitFor(
      `settled #${mine}`,
      (l) => l.event === 'settled' && l.seq === mine,
    );
    return line.conversations as ConversationInfo[];
  }

  it('SIGKILL the owner mid-dialog: the other node goes on from the same step, its timer fires there once, no reply twice', async () => {
    const placed = await eventually(() => fleet.placement(nodes).size === 1, 30_000);
    expect(placed, 'bot READY on one node').to.equal(true);
    const ownerId = fleet.placement(nodes).get('bot');
    const owner = nodes.find((n) => n.nodeId === ownerId)!;
    const survivor = nodes.find((n) => n !== owner)!;

    await exchange(owner, '!order', MENU);
    await exchange(owner, '2', ADDRESS);
    // the step is journaled and its reply recorded as sent; the reminder's timer is armed
    const [before] = await settle(owner);
    expect(before.name).to.equal('order');
    expect(before.timer?.action).to.equal('remind');
    // the other node reads the same conversation from the shared store
    const listed = await survivor.request('GET', '/api/v1/conversations');
    expect(listed.status).to.equal(200);
    expect(JSON.stringify(listed.json)).to.contain(before.id);

    const killedAt = Date.now();
    expect((await owner.kill('SIGKILL')).signal).to.equal('SIGKILL');
    const tookOver = await eventually(
      () => fleet.placement([survivor]).get('bot') === survivor.nodeId,
      LEASE.ttlMs + 15_000,
    );
    expect(tookOver, 'bot READY on the survivor').to.equal(true);

    // No message from the person: the reminder armed on the dead owner fires on the survivor.
    const reminded = await eventually(() => count(REMINDER) >= 1, TIMEOUT_SECONDS * 1000 + 15_000);
    expect(reminded, 'the reminder fired after the failover').to.equal(true);
    const remindedMs = Date.now() - killedAt;
    expect(sentBy(REMINDER)).to.deep.equal([survivor.nodeId]);
    const [after] = await settle(survivor);
    expect(after.id, 'the same conversation').to.equal(before.id);
    expect(after.steps, 'the reminder journaled as one step').to.equal(before.steps + 1);
    expect(after.timer?.action, 'next: the expiry').to.equal('expire');

    // The person goes on from the same step (the address), on the survivor.
    await exchange(survivor, '1 Main Street', CONFIRM);
    await exchange(survivor, 'yes', PLACED);
    await exchange(survivor, '!orders', ORDERS);
    expect(await settle(survivor), 'no conversation left active').to.deep.equal([]);

    // A second dialog left unanswered on the survivor: one reminder, then the expiry, once each.
    await exchange(survivor, '!order', MENU, 2);
    const expired = await eventually(
      () => count(EXPIRED) >= 1,
      2 * TIMEOUT_SECONDS * 1000 + 10_000,
    );
    expect(expired, 'the expiry fired with no message').to.equal(true);
    expect(await settle(survivor)).to.deep.equal([]);
    // let any duplicate (a second firing, a resend) arrive before counting
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const line = [...counts()].map(([body, n]) => `${JSON.stringify(body)} ×${n}`).join(', ');
    console.log(`      fleet conversation (reminder ${remindedMs} ms after the kill): ${line}`);
    expect(Object.fromEntries(counts())).to.deep.equal({
      [MENU]: 2,
      [ADDRESS]: 1,
      [REMINDER]: 2,
      [CONFIRM]: 1,
      [PLACED]: 1,
      [ORDERS]: 1,
      [EXPIRED]: 1,
    });
    expect(sentBy(MENU)).to.deep.equal([owner.nodeId, survivor.nodeId]);
    expect(sentBy(ADDRESS)).to.deep.equal([owner.nodeId]);
    expect(sentBy(CONFIRM)).to.deep.equal([survivor.nodeId]);
  });
});
