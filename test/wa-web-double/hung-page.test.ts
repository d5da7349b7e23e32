/**
 * Deadlines on page calls, on the real whatsapp-web.js 1.34.7 + the WhatsApp Web double: the
 * server stops answering contact queries (`phone.hangQueries()`), so the page call of a contact
 * look-up never answers. With `engine.protocolTimeoutMs` short, the look-up fails after that
 * long (puppeteer's protocolTimeout) instead of 180 s, and received messages, the one whose
 * sender could not be looked up and those after it, are delivered in order without waiting for it.
 * `engine.hungPage` is honoured: with `timeouts: 3` two timeouts in a row leave the page READY.
 */
import { expect } from 'chai';
import type { BotClient } from '../../src/client/bot-client.js';
import type { Message } from '../../src/index.js';
import type { EngineHealth } from '../../src/engines/health.js';
import { waitUntil } from '../helpers/wait-until.js';
import { NEWEST_BUILD } from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE, BOB, NOBODY } from './world.js';

/** Short, but long enough for the start-up's own page calls on a loaded machine. */
const PROTOCOL_TIMEOUT_MS = 3_000;

describe('a page call that never answers (whatsapp-web.js 1.34.7 + the double)', function () {
  this.timeout(90_000);
  let h: DoubleHarness;
  let client: BotClient;

  before(async () => {
    h = await DoubleHarness.create({
      build: NEWEST_BUILD,
      engine: { protocolTimeoutMs: PROTOCOL_TIMEOUT_MS },
    });
    client = h.sdk().createClient({ name: 'sales' });
    client.on('qr', (qr) => void h.link(qr));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
  });
  after(async () => {
    await h.cleanup();
  });

  it('a contact look-up fails after engine.protocolTimeoutMs, not puppeteer’s 180 s', async () => {
    await h.phone('hangQueries');
    const started = Date.now();
    const outcome = await Promise.race([
      client.resolveContact(BOB.lid ?? '').then(
        () => 'answered',
        (error: { message?: string }) => error.message ?? 'failed',
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 10_000)),
    ]);
    expect(outcome).to.match(/timed out/i);
    expect(Date.now() - started).to.be.at.least(PROTOCOL_TIMEOUT_MS - 100);
  });

  it('messages after a sender whose look-up hangs are delivered, in order, and nothing waits past the deadline', async () => {
    await h.phone('hangQueries');
    const got: Message[] = [];
    const states: string[] = [];
    client.on('message', (m) => void got.push(m));
    client.on('state', ({ to }) => void states.push(to));
    const sent = Date.now();
    await h.phone('receive', { from: BOB.lid, body: 'from a sender nobody can look up' });
    await h.phone('receive', { from: ALICE.pn, body: 'after it' });
    await waitUntil(
      () => got.length >= 2,
      15_000,
      () => JSON.stringify(got.map((m) => m.body)),
    );
    const waited = Date.now() - sent;
    expect(got.map((m) => m.body)).to.deep.equal(['from a sender nobody can look up', 'after it']);
    expect(got[0]?.sender.id).to.equal(BOB.lid);
    expect(got[0]?.sender.phone).to.equal(undefined);
    // the page call's deadline (or the sender completer's 5 s fallback) ended the wait
    expect(waited).to.be.below(5_000 + 1_000);
    // both look-ups timed out in a row: the page counts as hung and the supervisor restarts it
    // (the next suite); the fresh page answers, and the same client sends
    await waitUntil(
      () => states.includes('READY'),
      60_000,
      () => states.join(' → '),
    );
    expect(states[0]).to.equal('DISCONNECTED');
    const { id } = await client.sendTextMessage({ to: ALICE.pn, text: 'still here' });
    const out = await h.phone<Array<{ id: string }>>('sent');
    expect(out.map((m) => m.id)).to.include(id);
  });
});

describe('a hung page is restarted, nothing queued lost (whatsapp-web.js 1.34.7 + the double)', function () {
  this.timeout(120_000);
  let h: DoubleHarness;
  let client: BotClient;

  before(async () => {
    h = await DoubleHarness.create({
      build: NEWEST_BUILD,
      engine: { protocolTimeoutMs: PROTOCOL_TIMEOUT_MS },
    });
    client = h.sdk().createClient({ name: 'sales' });
    client.on('qr', (qr) => void h.link(qr));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
  });
  after(async () => {
    await h.cleanup();
  });

  it('page calls timing out in a row: the capability degraded with the reason, the page restarted, the queued send delivered once, inbound handled', async () => {
    const health: EngineHealth[] = [];
    const states: string[] = [];
    client.on('engine.health', (event) => void health.push(event));
    client.on('state', ({ to }) => void states.push(to));
    const pageBefore = await h.page();
    await h.phone('hangQueries');
    const started = Date.now();
    // a send queued while the page hangs (its number look-up never answers) and a look-up
    const sending = client.sendTextMessage({ to: ALICE.pn, text: 'queued during the hang' });
    const lookedUp = client.resolveContact(BOB.lid ?? '').then(
      () => 'answered',
      (error: Error) => error.message,
    );
    const degraded = (): EngineHealth | undefined =>
      health.find((e) => e.broken.includes('contacts.lid'));
    await waitUntil(
      () => degraded() !== undefined,
      4 * PROTOCOL_TIMEOUT_MS,
      () => JSON.stringify(health.map((e) => e.broken)),
    );
    // two page calls (3 s each, concurrent) timed out: within the deadline, not puppeteer's 180 s
    expect(Date.now() - started).to.be.below(2 * PROTOCOL_TIMEOUT_MS + 2_000);
    expect(degraded()?.status).to.equal('degraded');
    expect(degraded()?.capabilities['contacts.lid'].detail).to.match(/timed out after 3000 ms/);
    expect(await lookedUp).to.match(/timed out/i);
    // the supervisor restarts the page (a new browser: the double's switch lived in the old page)
    await client.waitUntilReady({ timeoutMs: 60_000 });
    await waitUntil(
      () => states.includes('READY'),
      60_000,
      () => states.join(' → '),
    );
    expect(states).to.deep.equal(['DISCONNECTED', 'STARTING', 'AUTHENTICATED', 'READY']);
    expect(await h.page()).to.not.equal(pageBefore);
    const { id } = await sending;
    const out = await h.phone<Array<{ id: string; body?: string }>>('sent');
    expect(out.filter((m) => m.id === id)).to.have.length(1);
    expect(out.filter((m) => m.body === 'queued during the hang')).to.have.length(1);
    // after READY the next check finds the capability answering again
    await waitUntil(
      () => health.at(-1)?.status === 'ok',
      30_000,
      () => JSON.stringify(health.at(-1)?.broken),
    );
    // later inbound messages are handled
    const got: Message[] = [];
    client.on('message', (m) => void got.push(m));
    await h.phone('receive', { from: ALICE.pn, body: 'after the restart' });
    await waitUntil(() => got.some((m) => m.body === 'after the restart'), 15_000);
  });
});

describe('engine.hungPage: the configured count (whatsapp-web.js 1.34.7 + the double)', function () {
  this.timeout(120_000);
  let h: DoubleHarness;
  let client: BotClient;

  before(async () => {
    h = await DoubleHarness.create({
      build: NEWEST_BUILD,
      engine: {
        protocolTimeoutMs: PROTOCOL_TIMEOUT_MS,
        hungPage: { timeouts: 3, windowMs: 60_000 },
      },
    });
    client = h.sdk().createClient({ name: 'sales' });
    client.on('qr', (qr) => void h.link(qr));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
  });
  after(async () => {
    await h.cleanup();
  });

  it('hungPage.timeouts 3: two page calls timing out in a row leave the page READY, the third ends it as hung', async () => {
    const states: string[] = [];
    const health: EngineHealth[] = [];
    client.on('state', ({ to }) => void states.push(to));
    client.on('engine.health', (event) => void health.push(event));
    await h.phone('hangQueries');
    const lookUp = (id: string): Promise<string> =>
      client.resolveContact(id).then(
        () => 'answered',
        (error: Error) => error.message,
      );
    // one after the other: timeouts in a row, no page call answering between them
    expect(await lookUp(BOB.lid ?? '')).to.match(/timed out/i);
    expect(await lookUp(BOB.pn)).to.match(/timed out/i);
    // the default (2) would have ended the attempt by now
    expect(states).to.deep.equal([]);
    expect(client.state).to.equal('READY');
    expect(await lookUp(NOBODY)).to.match(/timed out/i);
    await waitUntil(
      () => states.includes('DISCONNECTED'),
      10_000,
      () => states.join(' → '),
    );
    expect(states[0]).to.equal('DISCONNECTED');
    const degraded = health.find((e) => e.broken.includes('contacts.lid'));
    expect(degraded?.capabilities['contacts.lid'].detail).to.match(
      /3 page call\(s\) in a row timed out after 3000 ms/,
    );
    // (the restart that follows is the suite above's.) Let it settle before the harness removes
    // the profile folder: a browser still starting writes into it (ENOTEMPTY in the after hook)
    await waitUntil(
      () => states.includes('READY') || states.includes('FAILED'),
      60_000,
      () => states.join(' → '),
    );
  });
});
