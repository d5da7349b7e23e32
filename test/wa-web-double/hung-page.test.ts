/**
 * Deadlines on page calls, on the real whatsapp-web.js 1.34.7 + the WhatsApp Web double: the
 * server stops answering contact queries (`phone.hangQueries()`), so the page call of a contact
 * look-up never answers. With `engine.protocolTimeoutMs` short, the look-up fails after that
 * long (puppeteer's protocolTimeout) instead of 180 s, and received messages, the one whose
 * sender could not be looked up and those after it, are delivered in order without waiting for it.
 */
import { expect } from 'chai';
import type { BotClient } from '../../src/client/bot-client.js';
import type { Message } from '../../src/index.js';
import { waitUntil } from '../helpers/wait-until.js';
import { NEWEST_BUILD } from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE, BOB } from './world.js';

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
    client.on('message', (m) => void got.push(m));
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
    // the server answers again: the same client sends (nothing had to be restarted)
    await h.phone('hangQueries', false);
    const { id } = await client.sendTextMessage({ to: ALICE.pn, text: 'still here' });
    const out = await h.phone<Array<{ id: string }>>('sent');
    expect(out.map((m) => m.id)).to.include(id);
  });
});
