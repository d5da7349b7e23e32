/**
 * The send governor's restriction signals on the real whatsapp-web.js 1.34.7 + WhatsApp Web
 * double (issue 31): what the library can show of a restriction is acks and a logout with a ban
 * reason, and both reach the governor through the engine as a user runs it.
 */
import { expect } from 'chai';
import type { BotClient } from '../../src/client/bot-client.js';
import type { AccountRestriction } from '../../src/client/client-events.js';
import { prepareContent } from '../../src/entries/contract.js';
import type { Message } from '../../src/index.js';
import type { TrackedSend } from '../../src/queue/index.js';
import { DoubleHarness } from './harness.js';
import { ALICE, DEFAULT_WORLD, type DoublePerson } from './world.js';
import { waitUntil } from '../helpers/wait-until.js';

/** People on WhatsApp who never wrote to the bot: new contacts for the governor. */
const STRANGERS: DoublePerson[] = Array.from({ length: 8 }, (_, n) => ({
  pn: `1555000${String(100 + n).padStart(4, '0')}@c.us`,
  pushname: `Stranger ${n}`,
}));
const RUN = 3;

describe('governor signals on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(90_000);
  let h: DoubleHarness;
  let client: BotClient;
  const restricted: AccountRestriction[] = [];
  const statuses: TrackedSend[] = [];
  const final = (id: string) => statuses.filter((s) => s.id === id).at(-1)?.status;

  beforeEach(async () => {
    restricted.length = 0;
    statuses.length = 0;
    h = await DoubleHarness.create({
      world: { ...DEFAULT_WORLD, users: [...DEFAULT_WORLD.users, ...STRANGERS] },
    });
    const sdk = h.sdk({
      queue: { minGapMs: 150, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 },
      governor: {
        preset: 'standard',
        perHour: 1_000,
        perDay: 1_000,
        newContactsPerDay: 1_000,
        warmupDays: 0,
        cooldownMs: 60_000,
        undeliveredRun: RUN,
        undeliveredAfterMs: 300,
      },
    });
    client = sdk.createClient({ name: 'bot' });
    client.on('qr', (qr) => void h.link(qr));
    client.on('account.restricted', (restriction) => restricted.push(restriction));
    client.on('message.status', (record) => statuses.push(record));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('a reachout lock (new contacts stuck at one tick) pauses bulk with account.restricted "undelivered"; a reply to someone who wrote is still delivered', async () => {
    const wrote = new Promise<Message>((resolve) =>
      client.on('message', (m) => m.body === 'hi bot' && resolve(m)),
    );
    await h.phone('receive', { from: ALICE.pn, body: 'hi bot' });
    await wrote;
    await h.phone('lockReachout');

    const ids: string[] = [];
    for (const person of STRANGERS) {
      const queued = await client.enqueue(
        prepareContent(person.pn, `offer for ${person.pushname}`),
        {
          priority: 'bulk',
        },
      );
      ids.push(queued.trackingId);
    }
    await waitUntil(
      () => restricted.length === 1 && final(ids.at(-1)!) === 'deferred',
      20_000,
      () => `statuses ${ids.map(final).join(', ')}; restrictions ${restricted.length}`,
    );
    const stuck = ids.filter((id) => final(id) === 'sent');
    const waiting = ids.filter((id) => final(id) === 'deferred');
    console.log(
      `      reachout lock on the double: ${ids.length} bulk sends, stuck at one tick ${stuck.length}, ` +
        `deferred after the signal ${waiting.length}, restrictions ${restricted.length} (${restricted[0]?.reason})`,
    );
    expect(restricted.map((r) => [r.client, r.reason])).to.deep.equal([['bot', 'undelivered']]);
    expect(ids.filter((id) => ['delivered', 'read'].includes(final(id) ?? ''))).to.deep.equal([]);
    expect(stuck.length).to.be.at.least(RUN);
    expect(waiting.length).to.be.at.least(1);
    expect(stuck.length + waiting.length).to.equal(ids.length);
    expect(statuses.find((s) => s.id === waiting[0] && s.status === 'deferred')?.budget).to.equal(
      'restriction',
    );
    expect(client.info().governor?.restricted?.reason).to.equal('undelivered');

    // The conversation Alice opened is not locked: the reply goes during the cool-down and arrives.
    const reply = await client.enqueue(prepareContent(ALICE.pn, 'thanks Alice'), {
      priority: 'reply',
    });
    await reply.result;
    await waitUntil(() => final(reply.trackingId) === 'delivered', 20_000);
    // and the bulk still waits
    expect(waiting.every((id) => final(id) === 'deferred')).to.equal(true);
  });

  it('WhatsApp Web going TOS_BLOCK (a ban) is account.restricted "banned", kept in client info', async () => {
    expect(client.info().governor?.restricted).to.equal(null);
    await h.phone('setState', 'TOS_BLOCK');
    await waitUntil(() => restricted.length > 0, 10_000);
    expect(restricted.map((r) => [r.client, r.reason])).to.deep.equal([['bot', 'banned']]);
    expect(Date.parse(restricted[0].until) - Date.parse(restricted[0].since)).to.equal(60_000);
    expect(client.info().governor?.restricted).to.include({ reason: 'banned' });
  });
});
