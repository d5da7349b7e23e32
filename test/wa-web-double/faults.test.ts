/**
 * Faults on the real whatsapp-web.js 1.34.7 + WhatsApp Web double, through the SDK: Chromium's
 * renderer or the whole browser dying end with `browser_crashed`, the client reconnects from the
 * saved profile with no QR, and a send in flight when the browser died is not lost from the
 * outbox: it is retried after the reconnect (docs/queue.md, "Disconnects").
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import type { BotClient } from '../../src/client/bot-client.js';
import type { DisconnectReason } from '../../src/entries/types.js';
import { DoubleHarness } from './harness.js';
import { ALICE } from './world.js';

/** Descendants of `pid` whose command line contains `marker` (Chromium's renderers hang off its zygote). */
function descendantsOf(pid: number, marker: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows = out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grew = true;
      }
    }
  }
  return rows
    .filter((r) => r.pid !== pid && tree.has(r.pid) && r.args.includes(marker))
    .map((r) => r.pid);
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await probe();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('faults on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(90_000);
  let h: DoubleHarness;
  let client: BotClient;
  let reasons: DisconnectReason[];
  let qrs: number;

  beforeEach(async () => {
    h = await DoubleHarness.create();
    client = h
      .sdk({ reconnect: { initialDelayMs: 200, maxDelayMs: 500, jitter: 'none' } })
      .createClient({ name: 'sales' });
    reasons = [];
    qrs = 0;
    client.on('disconnected', (reason) => reasons.push(reason));
    client.on('qr', (qr) => {
      qrs += 1;
      void h.link(qr);
    });
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 30_000 });
  });
  afterEach(async () => {
    await h.cleanup();
  });

  const readyAgain = async (): Promise<void> => {
    await until(
      () => Promise.resolve(client.state),
      (s) => s !== 'READY',
      'the client to leave READY',
    );
    await client.waitUntilReady({ timeoutMs: 30_000 });
  };

  it('the renderer crashing: browser_crashed, then READY again from the profile with no QR', async () => {
    const browser = h.browserPid();
    const renderers = descendantsOf(browser ?? -1, '--type=renderer');
    expect(renderers.length, 'renderer processes').to.be.greaterThan(0);
    for (const renderer of renderers) process.kill(renderer, 'SIGKILL');
    await readyAgain();
    expect(reasons).to.deep.equal(['browser_crashed']);
    expect(qrs).to.equal(1);
  });

  it('the browser dying mid-send: the send is retried after the reconnect and delivered once', async () => {
    await h.phone('holdSends');
    const result = client.sendTextMessage({ to: ALICE.pn, text: 'survives the crash' });
    await until(
      () => h.phone<number>('heldSends'),
      (n) => n === 1,
      'the send in flight',
    );
    process.kill(h.browserPid() ?? -1, 'SIGKILL');
    await readyAgain();
    const { id } = await result;
    expect(reasons).to.deep.equal(['browser_crashed']);
    expect(qrs).to.equal(1);
    const sent = await h.phone<Array<{ id: string; body: string }>>('sent');
    expect(sent.filter((m) => m.body === 'survives the crash').map((m) => m.id)).to.deep.equal([
      id,
    ]);
  });
});
