/**
 * Sessions on the real whatsapp-web.js 1.34.7 + WhatsApp Web double: pairing by code, the phone
 * unpairing the device, the session expiring, conflicts, bans and a dying browser, each ending
 * with its documented `disconnected` reason (docs/engines.md, map-errors.ts).
 */
import { expect } from 'chai';
import { nextEvent } from '../engines/engine-contract.js';
import { NEWEST_BUILD } from './builds.js';
import { DoubleHarness, savedProfile } from './harness.js';
import { BOT } from './world.js';

/** Waits until `probe` holds (LocalAuth deletes the profile a moment after `disconnected`). */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

describe('whatsapp-web.js on the WhatsApp Web double: sessions', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  beforeEach(async () => {
    h = await DoubleHarness.create();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('links by pairing code instead of a QR code', async () => {
    const engine = h.engine();
    const qr = nextEvent(engine, 'qr', () => true, 20_000);
    const ready = nextEvent(engine, 'ready', () => true, 30_000);
    await engine.start();
    await qr;
    const code = await engine.ops.account.requestPairingCode(`+${BOT.pn.split('@')[0]}`);
    expect(code).to.match(/^[A-Z0-9]{8}$/);
    await h.phone('enterCode', code);
    await ready;
    expect(engine.me()?.id).to.equal(BOT.pn);
  });

  it('the QR ref rotates on its timer; after engine.qrMaxRetries codes: disconnected("qr_timeout")', async () => {
    await h.cleanup();
    h = await DoubleHarness.create({
      build: { ...NEWEST_BUILD, qrRefreshMs: 300 },
      engine: { qrMaxRetries: 2 },
    });
    const engine = h.engine();
    const codes: string[] = [];
    engine.on('qr', (qr) => codes.push(qr));
    const disconnected = nextEvent(engine, 'disconnected', () => true, 20_000);
    await engine.start();
    expect((await disconnected)[0]).to.equal('qr_timeout');
    expect(codes.length).to.be.at.least(2);
    expect(new Set(codes.map((c) => c.split(',')[0])).size).to.equal(codes.length);
  });

  it('the phone unpairs the device: disconnected("logout"), the profile is deleted, the next start shows a QR', async () => {
    const engine = await h.linkedEngine();
    expect(await savedProfile(h)).to.be.instanceOf(Buffer);
    const disconnected = nextEvent(engine, 'disconnected', () => true, 10_000);
    await h.phone('unpair');
    expect((await disconnected)[0]).to.equal('logout');
    await eventually(async () => (await savedProfile(h)) === null, 'profile deleted');
    const again = h.engine();
    const qr = nextEvent(again, 'qr', () => true, 20_000);
    await again.start();
    await qr;
  });

  it('the session expires: disconnected("session_expired"), and the profile no longer restores', async () => {
    const engine = await h.linkedEngine();
    const disconnected = nextEvent(engine, 'disconnected', () => true, 10_000);
    await h.phone('expire');
    expect((await disconnected)[0]).to.equal('session_expired');
    await engine.stop();
    const again = h.engine();
    const qr = nextEvent(again, 'qr', () => true, 20_000);
    await again.start();
    await qr;
  });

  for (const [state, reason] of [
    ['CONFLICT', 'conflict'],
    ['TOS_BLOCK', 'banned'],
    ['TIMEOUT', 'connection_lost'],
  ] as const) {
    it(`WhatsApp Web going ${state} ends with disconnected("${reason}")`, async () => {
      const engine = await h.linkedEngine();
      const disconnected = nextEvent(engine, 'disconnected', () => true, 10_000);
      await h.phone('setState', state);
      expect((await disconnected)[0]).to.equal(reason);
    });
  }

  it('Chromium dying ends with disconnected("browser_crashed") and the session restores after', async () => {
    const engine = await h.linkedEngine();
    const disconnected = nextEvent(engine, 'disconnected', () => true, 10_000);
    process.kill(h.browserPid() ?? 0, 'SIGKILL');
    expect((await disconnected)[0]).to.equal('browser_crashed');
    await engine.stop();
    const again = h.engine();
    const authenticated = nextEvent(again, 'authenticated', () => true, 20_000);
    const ready = nextEvent(again, 'ready', () => true, 20_000);
    await again.start();
    expect((await authenticated)[0]).to.deep.equal({ restored: true });
    await ready;
  });
});
