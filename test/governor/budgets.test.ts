import { expect } from 'chai';
import type sinon from 'sinon';
import { governorSchema } from '../../src/config/governor-schema.js';
import { queueSchema } from '../../src/config/schema.js';
import {
  RestrictionModel,
  DEFAULT_RESTRICTION,
} from '../../src/engines/simulator/restriction-model.js';
import { AccountGovernor } from '../../src/governor/account-governor.js';
import { DAY_MS, HOUR_MS } from '../../src/governor/budget-check.js';
import { MemoryAccountStore } from '../../src/governor/memory-account-store.js';
import { PRESETS, limitsOn, type PresetName } from '../../src/governor/presets.js';
import type { Clock } from '../../src/kernel/clock.js';
import { OutboundQueue, type SendHandle, type TrackedSend } from '../../src/queue/index.js';
import { NO_PACING, T0, isolatedClock } from '../queue/queue-helpers.js';

const BOT = 'bot@c.us';
const contact = (n: number) => `1555${String(n).padStart(7, '0')}@c.us`;
const replier = (n: number) => `1666${String(n).padStart(7, '0')}@c.us`;

interface Sent {
  chatId: string;
  at: number;
  newContact: boolean;
}

/** The queue of client `bot` on a day-1 number, its sends going through the simulated network's restriction model. */
function setup(preset: PresetName, clock: Clock) {
  const store = new MemoryAccountStore();
  const model = new RestrictionModel(DEFAULT_RESTRICTION, () => clock.now());
  // its network reports no acks: the undelivered-run signal is off here (restriction-signal.test.ts)
  const config = governorSchema.parse({
    preset,
    undeliveredRun: 0,
    accounts: { bot: { linkedAt: T0 } },
  });
  const budgets = PRESETS[preset];
  const governor = budgets
    ? new AccountGovernor({ client: 'bot', preset, budgets, config, store, clock })
    : undefined;
  const queue = new OutboundQueue({
    client: 'bot',
    config: queueSchema.parse({ ...NO_PACING, maxSize: 2_000, retries: 0 }),
    clock,
    ...(governor ? { gate: governor } : {}),
  });
  const records = new Map<string, TrackedSend>();
  queue.on('update', (record) => {
    records.set(record.id, record);
    governor?.observe(record);
  });
  const sent: Sent[] = [];
  const seen = new Set<string>();
  const job = (chatId: string, priority: 'bulk' | 'reply') => ({
    chatId,
    kind: 'text',
    priority,
    run: () => {
      model.admit(BOT, chatId);
      sent.push({
        chatId,
        at: clock.now(),
        newContact: !chatId.startsWith('1666') && !seen.has(chatId),
      });
      seen.add(chatId);
      return Promise.resolve({ id: `m${sent.length}` });
    },
  });
  return { store, model, governor, queue, records, sent, job };
}

/** The most messages any rolling window ending at a send held, against the limit then. */
function checkWindows(preset: PresetName, sent: Sent[]) {
  const budgets = PRESETS[preset]!;
  let maxHour = 0;
  for (const send of sent) {
    const limits = limitsOn(budgets, Math.floor((send.at - T0) / DAY_MS) + 1);
    const inHour = sent.filter((s) => s.at > send.at - HOUR_MS && s.at <= send.at).length;
    const inDay = sent.filter((s) => s.at > send.at - DAY_MS && s.at <= send.at);
    expect(inHour, `hour ending ${send.at - T0}`).to.be.at.most(limits.perHour);
    expect(inDay.length, `day ending ${send.at - T0}`).to.be.at.most(limits.perDay);
    expect(inDay.filter((s) => s.newContact).length).to.be.at.most(limits.newContactsPerDay);
    maxHour = Math.max(maxHour, inHour);
  }
  return maxHour;
}

describe('governor: a bulk of 500 sends to 300 new contacts on a day-1 number (simulated network, fake clock)', function () {
  this.timeout(60_000);
  let clock: sinon.SinonFakeTimers;
  let kernelClock: Clock;
  beforeEach(() => {
    ({ fake: clock, clock: kernelClock } = isolatedClock());
  });
  afterEach(() => clock.restore());

  async function run(preset: PresetName) {
    const fx = setup(preset, kernelClock);
    for (let n = 0; n < 10; n++) {
      await fx.governor?.noteInbound(replier(n), T0);
      fx.model.wrote(replier(n), BOT);
    }
    const handles: SendHandle[] = [];
    for (let n = 0; n < 500; n++) handles.push(fx.queue.enqueue(fx.job(contact(n % 300), 'bulk')));
    for (let n = 0; n < 5; n++) handles.push(fx.queue.enqueue(fx.job(replier(n), 'reply')));
    await clock.tickAsync(2 * HOUR_MS);
    const lateAt = clock.now;
    for (let n = 5; n < 10; n++) handles.push(fx.queue.enqueue(fx.job(replier(n), 'reply')));
    await clock.tickAsync(1_000);
    const late = fx.sent.filter((s) => s.chatId.startsWith('1666') && s.at >= lateAt);
    await clock.tickAsync(3 * DAY_MS - 2 * HOUR_MS - 1_000);
    const statuses = [...fx.records.values()].map((r) => r.status);
    const count = (status: string) => statuses.filter((s) => s === status).length;
    const perDay = [0, 1, 2].map(
      (d) => fx.sent.filter((s) => s.at >= T0 + d * DAY_MS && s.at < T0 + (d + 1) * DAY_MS).length,
    );
    return { ...fx, handles, late, count, perDay };
  }

  for (const preset of ['standard', 'conservative'] as const) {
    it(`${preset}: no rolling hour or day exceeds its budget, replies go first, the network never restricts, nothing is lost`, async () => {
      const r = await run(preset);
      const maxHour = checkWindows(preset, r.sent);
      // The first sends are the replies accepted after the bulk; the late ones went at once.
      // (the first bulk send had started as it was accepted, before the replies were)
      expect(r.sent.slice(1, 6).every((s) => s.chatId.startsWith('1666'))).to.equal(true);
      expect(r.late).to.have.length(5);
      expect(r.model.fired).to.deep.equal([]);
      const stats = r.queue.stats();
      expect(r.count('failed')).to.equal(0);
      const deferredNow = r.queue.governorInfo()!.deferred;
      expect(r.sent.length + stats.pending).to.equal(510);
      expect(deferredNow).to.be.greaterThan(0).and.at.most(stats.pending);
      const deferred = [...r.records.values()].filter((x) => x.status === 'deferred');
      expect(deferred.every((x) => x.budget && Date.parse(x.dueAt!) > clock.now)).to.equal(true);
      const info = r.governor!.info();
      expect(info.used.perDay).to.be.at.most(info.limits!.perDay);
      console.log(
        `      ${preset}: sent per day ${r.perDay.join('/')} (max ${maxHour} in an hour), ` +
          `new contacts ${r.sent.filter((s) => s.newContact).length}, deferred ${deferredNow}, ` +
          `failed ${r.count('failed')}, lost ${510 - r.sent.length - stats.pending}, restrictions 0`,
      );
      r.queue.close();
    });
  }

  it('off: everything goes at once and the simulated network restricts the account (463)', async () => {
    const r = await run('off');
    expect(r.model.fired.length).to.equal(1);
    expect(r.count('failed')).to.be.greaterThan(0);
    const failed = [...r.records.values()].find((x) => x.status === 'failed');
    expect(failed?.error?.code).to.equal('ACCOUNT_RESTRICTED');
    console.log(
      `      off: sent ${r.sent.length} (day 1 ${r.perDay[0]}), refused ${r.count('failed')} (ACCOUNT_RESTRICTED), restrictions ${r.model.fired.length}`,
    );
    r.queue.close();
  });
});
