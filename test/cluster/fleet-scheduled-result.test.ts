/**
 * The SDK `result` of a send scheduled on the node that runs its client, when another node of the
 * fleet changes it (docs/scheduling.md, "In a fleet"): cancelled there, the result rejects with
 * SEND_CANCELLED; moved earlier there, it resolves once the send went. Two SDKs in one process on a
 * real redis-server (test/cluster/fleet-harness.ts).
 */
import { expect } from 'chai';
import type { Sdk } from '../../src/index.js';
import { prepareSend } from '../../src/client/send/send-contract.js';
import { isWakitError } from '../../src/errors/index.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import { eventually, fleetHarness, readyClients, type FleetHarness } from './fleet-harness.js';

const TO = '15550001111';

describe('cluster: a scheduled send changed on another node settles its result', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet: FleetHarness;
  let owner: Sdk;
  let other: Sdk;

  before(async () => {
    redis = await RedisServer.start();
    gcs = await FakeGcsServer.start();
    fleet = fleetHarness(redis.url, gcs.url);
    owner = await fleet.start({ nodeId: 'sched-a', clients: ['bot'] });
    await eventually('bot READY on the first node', () => readyClients(owner).includes('bot'));
    other = await fleet.start({ nodeId: 'sched-b', clients: ['bot'] });
    owner.simulator.phone(TO);
  });

  after(async () => {
    await fleet?.dispose();
    await gcs?.close();
    await redis?.dispose();
  });

  it('cancelled on the other node: the result on the owner rejects with SEND_CANCELLED', async () => {
    expect(readyClients(other)).to.deep.equal([]);
    const queued = await owner
      .client('bot')
      .enqueue(prepareSend('text', { to: TO, text: 'later' }), { sendAt: Date.now() + 60_000 });
    const outcome = queued.result.then(
      () => 'sent',
      (e: unknown) => (isWakitError(e) ? e.code : String(e)),
    );
    const cancelled = await other.sends.cancel(queued.trackingId);
    expect(cancelled.status).to.equal('cancelled');
    const started = Date.now();
    const settled = await Promise.race([
      outcome,
      new Promise((resolve) => setTimeout(() => resolve('pending'), 5_000)),
    ]);
    expect(settled).to.equal('SEND_CANCELLED');
    expect(Date.now() - started, 'within the poll (1 s) and a margin').to.be.below(3_000);
  });

  it('moved earlier on the other node: the owner sends it then and its result resolves', async () => {
    const queued = await owner
      .client('bot')
      .enqueue(prepareSend('text', { to: TO, text: 'sooner' }), { sendAt: Date.now() + 60_000 });
    const sendAt = Date.now() + 1_500;
    const moved = await other.sends.reschedule(queued.trackingId, sendAt);
    expect(moved.status).to.equal('scheduled');
    const result = await queued.result;
    // the owner writes the send's outcome to the shared outbox just after the result settles: the
    // other node reads it once that write landed (a deadline, not a sleep)
    await eventually('the outcome in the shared outbox', async () =>
      Boolean((await other.sends.get(queued.trackingId))?.messageId),
    );
    const record = await other.sends.get(queued.trackingId);
    expect(record?.messageId).to.equal(result.id);
    expect(Date.parse(record!.sentAt!)).to.be.at.least(sendAt);
  });
});
