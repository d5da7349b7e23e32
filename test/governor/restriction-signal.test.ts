import { expect } from 'chai';
import type { Sdk } from '../../src/index.js';
import { prepareContent } from '../../src/entries/contract.js';
import type { AccountRestriction } from '../../src/client/client-events.js';
import { RestrictionModel } from '../../src/engines/simulator/restriction-model.js';
import type { TrackedSend } from '../../src/queue/index.js';
import { BOT_ID, linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

const COOLDOWN_MS = 1_500;
const phone = (n: number) => `1555300${String(n).padStart(4, '0')}`;

describe('governor: WhatsApp restriction signal on the simulator (SDK)', function () {
  this.timeout(30_000);
  let sdk: Sdk;
  let cleanup: () => Promise<void>;
  afterEach(async () => {
    await sdk.stop();
    await cleanup();
  });

  it('a send refused with 463 pauses bulk within one send (account.restricted), replies still go, bulk resumes after the cool-down (account.resumed)', async () => {
    const scratch = await tempDir();
    cleanup = scratch.cleanup;
    sdk = simulatorSdk(scratch.dir, {
      governor: {
        preset: 'standard',
        perHour: 1_000,
        perDay: 1_000,
        newContactsPerDay: 1_000,
        warmupDays: 0,
        cooldownMs: COOLDOWN_MS,
      },
    });
    // The simulated WhatsApp locks an account after 3 new contacts, for as long as the cool-down.
    sdk.simulator.restrictions = new RestrictionModel({
      newContactsPerDay: 3,
      perHour: 1_000,
      lockMs: COOLDOWN_MS,
    });
    const client = await linkedClient(sdk, 'bot');
    const friend = sdk.simulator.phone('15559990000');
    await friend.send(BOT_ID, 'hi bot');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const events: { event: string; restriction: AccountRestriction; at: number }[] = [];
    client.on('account.restricted', (restriction) =>
      events.push({ event: 'restricted', restriction, at: Date.now() }),
    );
    client.on('account.resumed', (restriction) =>
      events.push({ event: 'resumed', restriction, at: Date.now() }),
    );
    const statuses: TrackedSend[] = [];
    client.on('message.status', (record) => statuses.push(record));
    for (let n = 0; n < 7; n++) sdk.simulator.phone(phone(n));

    const ids: string[] = [];
    for (let n = 0; n < 7; n++) {
      const queued = await client.enqueue(prepareContent(phone(n), `bulk ${n}`), {
        priority: 'bulk',
      });
      ids.push(queued.trackingId);
    }
    const final = (id: string) => statuses.filter((s) => s.id === id).at(-1)?.status;
    await waitUntil(
      () => events.length === 1 && ids.slice(4).every((id) => final(id) === 'deferred'),
    );
    // 3 went, the 4th was refused (the signal), the 5th on waited: one refused send, no more.
    expect(
      ids
        .slice(0, 3)
        .map(final)
        .every((s) => s === 'sent' || s === 'delivered' || s === 'read'),
    ).to.equal(true);
    expect(final(ids[3])).to.equal('failed');
    expect(statuses.filter((s) => s.status === 'failed')).to.have.length(1);
    expect(events[0]).to.deep.include({ event: 'restricted' });
    expect(events[0].restriction).to.include({ client: 'bot', reason: 'send-refused' });
    const deferred = statuses.filter((s) => s.id === ids[4] && s.status === 'deferred').at(-1)!;
    expect(deferred.budget).to.equal('restriction');
    expect(client.info().governor?.restricted?.reason).to.equal('send-refused');

    // A reply inside the open conversation goes during the cool-down.
    const reply = await client.enqueue(prepareContent('15559990000', 'hello friend'), {
      priority: 'reply',
    });
    await reply.result;

    // After the cool-down: resumed, and the deferred bulk goes (the simulated lock has ended too;
    // 3 new contacts fit its threshold again).
    await waitUntil(
      () => ids.slice(4).every((id) => ['sent', 'delivered', 'read'].includes(final(id) ?? '')),
      10_000,
    );
    const resumed = events.find((e) => e.event === 'resumed');
    expect(resumed, 'account.resumed').to.not.equal(undefined);
    expect(resumed!.at - events[0].at).to.be.at.least(COOLDOWN_MS - 50);
    expect(client.info().governor?.restricted).to.equal(null);
  });

  it('a run of sends to new contacts stuck at one tick is a restriction signal: account.restricted with reason undelivered, the rest of the bulk waits', async () => {
    const scratch = await tempDir();
    cleanup = scratch.cleanup;
    const RUN = 4;
    sdk = simulatorSdk(scratch.dir, {
      engine: { type: 'simulator', ackDelayMs: 5 },
      // one send every 100 ms; a send counts as stuck after 250 ms at one tick
      queue: { minGapMs: 100, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 },
      governor: {
        preset: 'standard',
        perHour: 1_000,
        perDay: 1_000,
        newContactsPerDay: 1_000,
        warmupDays: 0,
        cooldownMs: 60_000,
        undeliveredRun: RUN,
        undeliveredAfterMs: 250,
      },
    });
    // The simulated WhatsApp restricts silently after 3 new contacts: messages to new contacts
    // then get one tick and are never delivered (no 463).
    sdk.simulator.restrictions = new RestrictionModel({
      newContactsPerDay: 3,
      perHour: 1_000,
      lockMs: 60_000,
      silent: true,
    });
    const client = await linkedClient(sdk, 'bot');
    const restricted: AccountRestriction[] = [];
    client.on('account.restricted', (restriction) => restricted.push(restriction));
    const statuses: TrackedSend[] = [];
    client.on('message.status', (record) => statuses.push(record));
    const BULK = 12;
    for (let n = 0; n < BULK; n++) sdk.simulator.phone(phone(100 + n));
    const ids: string[] = [];
    for (let n = 0; n < BULK; n++) {
      const queued = await client.enqueue(prepareContent(phone(100 + n), `bulk ${n}`), {
        priority: 'bulk',
      });
      ids.push(queued.trackingId);
    }
    const final = (id: string) => statuses.filter((s) => s.id === id).at(-1)?.status;
    await waitUntil(() => restricted.length === 1 && final(ids.at(-1)!) === 'deferred');
    const delivered = ids.filter((id) => ['delivered', 'read'].includes(final(id) ?? ''));
    const stuck = ids.filter((id) => final(id) === 'sent');
    const waiting = ids.filter((id) => final(id) === 'deferred');
    console.log(
      `      undelivered run: ${BULK} bulk sends, delivered ${delivered.length}, stuck at one tick ${stuck.length}, ` +
        `deferred after the signal ${waiting.length}, restrictions ${restricted.length} (${restricted[0]?.reason})`,
    );
    expect(restricted.map((r) => r.reason)).to.deep.equal(['undelivered']);
    expect(delivered).to.have.length(3);
    // the run: RUN sends stayed at one tick (and those sent while the last of them was waited
    // for); every bulk send after the signal waits for the cool-down
    expect(stuck.length).to.be.at.least(RUN);
    expect(waiting.length).to.be.at.least(1);
    expect(stuck.length + waiting.length).to.equal(BULK - 3);
    expect(client.info().governor?.restricted?.reason).to.equal('undelivered');
  });

  it('a logout with a ban reason is a restriction signal: account.restricted with reason banned, shown in info', async () => {
    const scratch = await tempDir();
    cleanup = scratch.cleanup;
    sdk = simulatorSdk(scratch.dir, { governor: { preset: 'standard', cooldownMs: 60_000 } });
    const client = await linkedClient(sdk, 'bot');
    const restricted: AccountRestriction[] = [];
    client.on('account.restricted', (restriction) => restricted.push(restriction));
    expect(client.info().governor?.restricted).to.equal(null);

    sdk.simulator.disconnect('bot', 'banned');
    for (let n = 0; n < 50 && restricted.length === 0; n++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(restricted.map((r) => [r.client, r.reason])).to.deep.equal([['bot', 'banned']]);
    expect(Date.parse(restricted[0].until) - Date.parse(restricted[0].since)).to.equal(60_000);
    expect(client.info().governor?.restricted).to.include({ reason: 'banned' });
  });
});
