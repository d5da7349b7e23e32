/**
 * Scheduled sends through the SDK (docs/scheduling.md) on the simulator, the SQLite outbox and a
 * virtual clock: accepted now, `scheduled` with its `sendAt`, sent at its time and not before,
 * listed, cancelled (never goes), rescheduled, governed at send time, kept through a restart.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Sdk, type WakitConfigInput } from '../../../src/index.js';
import { prepareSend } from '../../../src/client/send/send-contract.js';
import { CLOCK } from '../../../src/kernel/tokens.js';
import { VirtualClock } from '../../../src/kernel/virtual-clock.js';
import { isWakitError } from '../../../src/errors/index.js';
import '../../../src/entries/simulator.js';
import { linkedClient, tempDir } from '../../helpers/sdk-fixtures.js';

const MINUTE = 60_000;
const alice = '15550002001';
const bob = '15550002002';

function sdkOn(dataPath: string, clock: VirtualClock, extra: Partial<WakitConfigInput> = {}): Sdk {
  return createSdk(
    {
      engine: { type: 'simulator', ackDelayMs: 5 },
      auth: { type: 'local', dataPath },
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10, drainTimeoutMs: 0 },
      ...extra,
    },
    {
      logger: pino({ level: 'silent' }),
      services: (s) => void s.register(CLOCK, { useValue: clock }),
    },
  );
}

/** Lets the outbox, queue and simulator finish what they do (real time: the simulator's acks). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

describe('scheduled sends (SDK, virtual clock)', function () {
  this.timeout(20_000);
  let sdk: Sdk | undefined;
  let cleanup: () => Promise<void>;
  let dir: string;
  let clock: VirtualClock;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('wakit-sched-'));
    clock = new VirtualClock(Date.now());
  });
  afterEach(async () => {
    await sdk?.stop();
    sdk = undefined;
    await cleanup();
  });

  async function start(extra: Partial<WakitConfigInput> = {}) {
    sdk = sdkOn(dir, clock, extra);
    const client = await linkedClient(sdk, 'bot');
    const phones = { alice: sdk.simulator.phone(alice), bob: sdk.simulator.phone(bob) };
    return { client, phones, sdk };
  }

  it('goes at its time, not a millisecond before; its status says scheduled and when, then sent', async () => {
    const { client, phones, sdk } = await start();
    const sendAt = clock.now() + 10 * MINUTE;
    const queued = await client.enqueue(prepareSend('text', { to: alice, text: 'reminder' }), {
      sendAt,
    });
    expect(queued.scheduledAt).to.equal(sendAt);
    const record = await sdk.sends.get(queued.trackingId);
    expect(record).to.include({ status: 'scheduled', sendAt: new Date(sendAt).toISOString() });
    await clock.advance(10 * MINUTE - 1);
    await settle();
    expect(phones.alice.inbox).to.have.length(0);
    expect((await sdk.sends.get(queued.trackingId))?.status).to.equal('scheduled');
    await clock.advance(1);
    const result = await queued.result;
    expect(phones.alice.inbox.map((m) => m.body)).to.deep.equal(['reminder']);
    const sent = await sdk.sends.get(queued.trackingId);
    expect(sent?.messageId).to.equal(result.id);
    expect(sent?.sendAt).to.equal(new Date(sendAt).toISOString());
    expect(['sent', 'delivered', 'read']).to.include(sent?.status);
    expect(Date.parse(sent!.sentAt!)).to.be.at.least(sendAt);
  });

  it('lists scheduled sends; cancel: it never goes; reschedule: earlier and later', async () => {
    const { client, phones, sdk } = await start();
    const now = clock.now();
    const send = (to: string, text: string, at: number) =>
      client.enqueue(prepareSend('text', { to, text }), { sendAt: at });
    const a = await send(alice, 'a', now + 5 * MINUTE);
    const b = await send(alice, 'b', now + 6 * MINUTE);
    const c = await send(bob, 'c', now + 7 * MINUTE);
    const listed = await sdk.sends.list({ status: 'scheduled', limit: 10 });
    expect(listed.items.map((i) => i.id).sort()).to.deep.equal(
      [a.trackingId, b.trackingId, c.trackingId].sort(),
    );

    const cancelled = await sdk.sends.cancel(b.trackingId);
    expect(cancelled.status).to.equal('cancelled');
    const bResult = b.result.then(
      () => 'sent',
      (e: unknown) => (isWakitError(e) ? e.code : 'other'),
    );
    // c earlier than a, a later than it was
    await sdk.sends.reschedule(c.trackingId, new Date(now + 1 * MINUTE));
    const moved = await sdk.sends.reschedule(a.trackingId, now + 20 * MINUTE);
    expect(moved).to.include({
      status: 'scheduled',
      sendAt: new Date(now + 20 * MINUTE).toISOString(),
    });

    await clock.advance(1 * MINUTE);
    await c.result;
    expect(phones.bob.inbox.map((m) => m.body)).to.deep.equal(['c']);
    await clock.advance(18 * MINUTE);
    await settle();
    expect(phones.alice.inbox).to.have.length(0);
    await clock.advance(1 * MINUTE);
    await a.result;
    await clock.advance(60 * MINUTE);
    await settle();
    expect(phones.alice.inbox.map((m) => m.body)).to.deep.equal(['a']);
    expect(await bResult).to.equal('SEND_CANCELLED');
    expect((await sdk.sends.get(b.trackingId))?.status).to.equal('cancelled');
    // it went: neither cancel nor reschedule can call it back
    for (const attempt of [
      () => sdk.sends.cancel(a.trackingId),
      () => sdk.sends.reschedule(a.trackingId, clock.now() + MINUTE),
    ]) {
      const error: unknown = await attempt().catch((e: unknown) => e);
      expect(isWakitError(error, 'MESSAGE_NOT_SCHEDULED')).to.equal(true);
    }
    const missing: unknown = await sdk.sends.cancel('nope').catch((e: unknown) => e);
    expect(isWakitError(missing, 'MESSAGE_NOT_FOUND')).to.equal(true);
  });

  it('refuses an invalid sendAt, one too far back or too far ahead (INVALID_SEND_AT); within the tolerance it goes now', async () => {
    const { client, phones } = await start({
      queue: {
        minGapMs: 0,
        jitterMs: 0,
        perChatGapMs: 0,
        drainTimeoutMs: 0,
        schedule: { maxAheadMs: 60 * MINUTE, pastToleranceMs: MINUTE },
      },
    });
    const prepared = () => prepareSend('text', { to: alice, text: 'x' });
    const cases: [unknown, string][] = [
      ['tomorrow', 'invalid'],
      ['2026-13-45T00:00:00Z', 'invalid'],
      [clock.now() - 2 * MINUTE, 'past'],
      [clock.now() + 61 * MINUTE, 'too_far'],
    ];
    for (const [sendAt, reason] of cases) {
      const error: unknown = await client
        .enqueue(prepared(), { sendAt: sendAt as number })
        .catch((e: unknown) => e);
      expect(isWakitError(error, 'INVALID_SEND_AT'), String(sendAt)).to.equal(true);
      expect((error as { details: { reason: string } }).details.reason).to.equal(reason);
    }
    const now = await client.enqueue(prepared(), { sendAt: clock.now() - 30_000 });
    expect(now.scheduledAt).to.equal(undefined);
    await now.result;
    expect(phones.alice.inbox).to.have.length(1);
  });

  it("the governor's budgets apply at send time, not at acceptance", async () => {
    const { client, phones, sdk } = await start({
      governor: { preset: 'standard', newContactsPerDay: 1, warmupDays: 0 },
    });
    // accepted while the budget has room: acceptance takes nothing from it
    const later = await client.enqueue(prepareSend('text', { to: alice, text: 'later' }), {
      sendAt: clock.now() + 5 * MINUTE,
    });
    // this one takes the only new contact of the day now
    await client.sendTextMessage({ to: bob, text: 'now' });
    expect(phones.bob.inbox).to.have.length(1);
    await clock.advance(5 * MINUTE);
    await settle();
    const record = await sdk.sends.get(later.trackingId);
    expect(record).to.include({ status: 'deferred', budget: 'newContactsPerDay' });
    expect(phones.alice.inbox).to.have.length(0);
  });

  it('survives a restart on the same SQLite outbox: goes once, at its time; a cancelled one never', async () => {
    let { client, sdk: first } = await start();
    const at = clock.now() + 30 * MINUTE;
    const kept = await client.enqueue(prepareSend('text', { to: alice, text: 'kept' }), {
      sendAt: at,
    });
    const dropped = await client.enqueue(prepareSend('text', { to: alice, text: 'dropped' }), {
      sendAt: at,
    });
    await first.sends.cancel(dropped.trackingId);
    await first.stop();
    sdk = undefined;
    ({ client, sdk: first } = await start());
    const phone = first.simulator.phone(alice);
    expect((await first.sends.get(kept.trackingId))?.status).to.equal('scheduled');
    await clock.advance(30 * MINUTE - 1);
    await settle();
    expect(phone.inbox).to.have.length(0);
    await clock.advance(1);
    await phone.waitForMessage((m) => m.body === 'kept');
    await clock.advance(60 * MINUTE);
    await settle();
    expect(phone.inbox.map((m) => m.body)).to.deep.equal(['kept']);
    expect((await first.sends.get(dropped.trackingId))?.status).to.equal('cancelled');
  });
});
