/**
 * The double breaks where the real page breaks (issue 36): it syncs on its own clock, never
 * waiting for whatsapp-web.js's listener; it resyncs; its download MIME check skips files in the
 * in-memory blob cache; READY reaches wakit at most once per page load whatever the page does.
 */
import { expect } from 'chai';
import { nextEvent, sleep } from '../engines/engine-contract.js';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { Attempt } from '../../src/engines/wwebjs/attempt.js';
import { waitUntil } from '../helpers/wait-until.js';
import { BASELINE_BUILD, DOWNLOAD_MIMETYPE_BUILD, type DoubleBuild } from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE } from './world.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The baseline build with a page that syncs the moment it connects (no switch: timing only). */
const FAST_SYNC_BUILD: DoubleBuild = { ...BASELINE_BUILD, syncDelayMs: 0, connectDelayMs: 0 };

describe('the double breaks like the real page (real whatsapp-web.js 1.34.7)', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  afterEach(async () => {
    await h?.cleanup();
  });

  async function linked(build: DoubleBuild, disable: string[] = []): Promise<WwebjsEngine> {
    h = await DoubleHarness.create({ build });
    const engine = h.engine({ compat: { disable } });
    const qr = nextEvent(engine, 'qr', undefined, 15_000);
    const ready = nextEvent(engine, 'ready', undefined, 15_000);
    ready.catch(() => undefined);
    await engine.start();
    await h.link((await qr)[0]);
    await ready;
    return engine;
  }

  /** Counts an engine's events by name. */
  function counting(engine: WwebjsEngine, names: readonly ('authenticated' | 'ready')[]) {
    const counts: Record<string, number> = {};
    for (const name of names) {
      counts[name] = 0;
      engine.on(name, () => (counts[name] += 1));
    }
    return counts;
  }

  it('a restored page syncs without waiting for whatsapp-web.js: no READY without ready-race, one with it', async () => {
    const first = await linked(FAST_SYNC_BUILD);
    await first.stop();

    const stuck = h.engine({ compat: { disable: ['ready-race'] } });
    const seen = counting(stuck, ['authenticated', 'ready']);
    await stuck.start();
    await waitUntil(() => h.clients.length === 2);
    // synced, and whatsapp-web.js listens now: too late
    await h.until(
      'window.__double.Socket.hasSynced && window.__double.Socket.listenerCount("change:hasSynced") > 0',
    );
    await sleep(1_500); // the window in which READY would follow a synced event
    expect(seen).to.deep.equal({ authenticated: 0, ready: 0 });
    await stuck.stop();

    const engine = h.engine();
    const counts = counting(engine, ['authenticated', 'ready']);
    const ready = nextEvent(engine, 'ready', undefined, 15_000);
    await engine.start();
    await ready;
    expect(counts).to.deep.equal({ authenticated: 1, ready: 1 });
    await engine.send(ALICE.pn, { kind: 'text', text: 'back', options: {} });
  });

  it('a resync (hasSynced false, then true) never produces a second READY', async () => {
    const engine = await linked(BASELINE_BUILD);
    const counts = counting(engine, ['authenticated', 'ready']);
    let libraryReady = 0;
    (h.clients[0] as unknown as NodeJS.EventEmitter).on('ready', () => (libraryReady += 1));
    await h.phone('resync'); // whatsapp-web.js's listener has called its synced binding again
    // A barrier: one more synced call, awaited (the binding resolves once the Node side has
    // handled it; calls are handled in the order the page made them), then the engine's compat
    // queue, after which a READY the engine took would have been passed on.
    const page = await h.page();
    await page.evaluate('window.onAppStateHasSyncedEvent()');
    const attempt = (engine as unknown as { attempt: Attempt }).attempt;
    await attempt.compat?.ready();
    expect(counts).to.deep.equal({ authenticated: 0, ready: 0 });
    expect(libraryReady).to.equal(0); // the binding let no second synced call through
    await engine.send(ALICE.pn, { kind: 'text', text: 'still one session', options: {} });
  });

  it('the download MIME check skips a file in the in-memory blob cache (no fetch, no refusal)', async () => {
    const engine = await linked(DOWNLOAD_MIMETYPE_BUILD, ['download-mimetype']);
    const incoming = nextEvent(engine, 'message', undefined, 10_000);
    await h.phone('receive', {
      from: ALICE.pn,
      media: PNG.toString('base64'),
      mimetype: 'image/png',
      cached: true,
    });
    const file = await engine.downloadMedia((await incoming)[0].id);
    expect(file.data.equals(PNG)).to.equal(true);
    expect(await h.phone('downloads')).to.deep.equal([]);
  });

  it('the MIME check is a rollout flag: with it off, a download without the MIME type works', async () => {
    const engine = await linked(DOWNLOAD_MIMETYPE_BUILD, ['download-mimetype']);
    const page = await h.page();
    await page.evaluate('window.__double.rollout.downloadMimetypeCheck = false');
    const incoming = nextEvent(engine, 'message', undefined, 10_000);
    await h.phone('receive', {
      from: ALICE.pn,
      media: PNG.toString('base64'),
      mimetype: 'image/png',
    });
    const file = await engine.downloadMedia((await incoming)[0].id);
    expect(file.data.equals(PNG)).to.equal(true);
    expect(await h.phone('downloads')).to.have.lengthOf(1);
  });
});
