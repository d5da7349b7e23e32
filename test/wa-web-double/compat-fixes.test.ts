/**
 * Every built-in compat fix on the WhatsApp Web double's builds, with the real whatsapp-web.js
 * 1.34.7: on the build with the change, the user-visible operation fails without the fix (the fix
 * switched off the way an operator would, `engine.compat.disable`) with the error users reported,
 * and works with it; on the baseline build the fixes change nothing.
 */
import { expect } from 'chai';
import { expectCode, nextEvent, sleep } from '../engines/engine-contract.js';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { CompatResult } from '../../src/engines/health.js';
import {
  BUILTIN_FIXES,
  COMPAT_WEB_VERSION,
  PageError,
} from '../../src/engines/wwebjs/compat/index.js';
import {
  BASELINE_BUILD,
  DOWNLOAD_MIMETYPE_BUILD,
  KEY_RENAME_BUILD,
  MEDIA_ID_CLOBBER_BUILD,
  NEWEST_BUILD,
  READY_RACE_BUILD,
  onboardingModalBuild,
  type DoubleBuild,
} from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE } from './world.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const IMAGE = {
  kind: 'image',
  media: { data: PNG, mimetype: 'image/png', filename: 'dot.png' },
} as const;
const ALL = BUILTIN_FIXES.map((fix) => fix.id);

/** The message's failure and its cause's text (the page's error, unminified). */
async function failure(promise: Promise<unknown>): Promise<{ code: string; text: string }> {
  const error = (await promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e,
  )) as { code: string; cause?: Error };
  return { code: error.code, text: String(error.cause?.message) };
}

describe('compat fixes on the WhatsApp Web double (real whatsapp-web.js 1.34.7)', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  afterEach(async () => {
    await h?.cleanup();
  });

  /** A new harness on `build`; an engine with these fixes disabled, linked by QR and READY. */
  async function linked(build: DoubleBuild, disable: string[] = []): Promise<WwebjsEngine> {
    h = await DoubleHarness.create({ build });
    return start(disable, true);
  }

  async function start(disable: string[], link: boolean) {
    const engine = h.engine({ compat: { disable } });
    const qr = link ? nextEvent(engine, 'qr', undefined, 15_000) : null;
    const ready = nextEvent(engine, 'ready', undefined, 15_000);
    ready.catch(() => undefined);
    await engine.start();
    if (qr) await h.link((await qr)[0]);
    await ready;
    return engine;
  }

  async function compat(engine: WwebjsEngine, id: string): Promise<CompatResult> {
    const found = (await engine.ops.account.checkHealth()).compat.find((fix) => fix.id === id);
    if (!found) expect.fail(`no compat result ${id}`);
    return found;
  }

  /** An image from Alice, received by the engine; its message id. */
  async function imageFromAlice(engine: WwebjsEngine): Promise<string> {
    const incoming = nextEvent(engine, 'message', undefined, 10_000);
    await h.phone('receive', {
      from: ALICE.pn,
      media: PNG.toString('base64'),
      mimetype: 'image/png',
    });
    return (await incoming)[0].id;
  }

  describe('msg-key-serialized (2026-07 key rename, KEY_RENAME_BUILD)', () => {
    it('without the fix a delivered send reports CHAT_NOT_FOUND; incoming ids are rebuilt in Node', async () => {
      const engine = await linked(KEY_RENAME_BUILD, ['msg-key-serialized']);
      await expectCode(
        engine.send(ALICE.pn, { kind: 'text', text: 'hi', options: {} }),
        'CHAT_NOT_FOUND',
      );
      const incoming = nextEvent(engine, 'message');
      const received = await h.phone<string>('receive', { from: ALICE.pn, body: 'hello' });
      // the id crosses without _serialized (1.34.7 lost it); serialized-id.ts rebuilds it
      expect((await incoming)[0].id).to.equal(received);
      expect(await compat(engine, 'msg-key-serialized')).to.include({
        needed: true,
        applied: false,
      });
    });

    it('with the fix the send returns the id the phone received, and incoming ids are whole', async () => {
      const engine = await linked(KEY_RENAME_BUILD);
      const { id } = await engine.send(ALICE.pn, { kind: 'text', text: 'hi', options: {} });
      const sent = await h.phone<Array<{ id: string }>>('sent');
      expect(sent.map((m) => m.id)).to.deep.equal([id]);
      const incoming = nextEvent(engine, 'message');
      const received = await h.phone<string>('receive', { from: ALICE.pn, body: 'hello' });
      expect((await incoming)[0].id).to.equal(received);
      expect(await compat(engine, 'msg-key-serialized')).to.include({
        needed: true,
        applied: true,
      });
    });
  });

  describe('media-send-id (2026-09-17 prep id clobber, MEDIA_ID_CLOBBER_BUILD)', () => {
    it('without the fix every media send fails with the reported error', async () => {
      const engine = await linked(MEDIA_ID_CLOBBER_BUILD, ['media-send-id']);
      const { code, text } = await failure(engine.send(ALICE.pn, IMAGE));
      expect(code).to.equal('ENGINE_ERROR');
      expect(text).to.contain(
        "Data passed to getter must include an id property (it's how we memoize) but got undefined",
      );
      expect(await h.phone('sent')).to.deep.equal([]);
    });

    it('with the fix the image reaches the phone, byte for byte', async () => {
      const engine = await linked(MEDIA_ID_CLOBBER_BUILD);
      const { id } = await engine.send(ALICE.pn, IMAGE);
      expect(await h.phone('sentMedia', id)).to.equal(PNG.toString('base64'));
      expect(await compat(engine, 'media-send-id')).to.include({ needed: true, applied: true });
    });
  });

  describe('download-mimetype (downloads need the MIME type, DOWNLOAD_MIMETYPE_BUILD)', () => {
    it('without the fix an inbound image is downloaded, then refused: InvalidMediaFileType', async () => {
      const engine = await linked(DOWNLOAD_MIMETYPE_BUILD, ['download-mimetype']);
      const download = engine.downloadMedia(await imageFromAlice(engine));
      const error = (await download.catch((e: unknown) => e)) as { code: string; cause: unknown };
      expect(error.code).to.equal('ENGINE_ERROR');
      const cause = error.cause as PageError & { mediaType?: string; mimetype?: string };
      expect(cause.message).to.contain(
        'InvalidMediaFileType: Unexpected mimetype application/octet-stream for media type image',
      );
      // the check comes after the download: the file was fetched once, with no MIME type
      expect(await h.phone('downloads')).to.have.lengthOf(1);
      // page-errors: the minified custom error's name, own fields and page-side stack reach Node
      expect(cause).to.be.instanceOf(PageError);
      expect(cause.name).to.equal('InvalidMediaFileType');
      expect(cause.page.constructorName).to.equal('t');
      expect(cause.page.fields).to.deep.equal({
        mediaType: 'image',
        mimetype: 'application/octet-stream',
      });
      expect(cause.mediaType).to.equal('image');
      expect(cause.stack).to.match(/--- page ---\n\s+at /);
    });

    it('with the fix the MIME type goes with the one download, which returns the bytes Alice sent', async () => {
      const engine = await linked(DOWNLOAD_MIMETYPE_BUILD);
      const file = await engine.downloadMedia(await imageFromAlice(engine));
      expect(file.data.equals(PNG)).to.equal(true);
      expect(file.mimetype).to.equal('image/png');
      // passed up front (#201908, #201914): one fetch, not a refused one and a retry
      const downloads = await h.phone<Array<{ mimetype?: string }>>('downloads');
      expect(downloads.map((d) => d.mimetype)).to.deep.equal(['image/png']);
      expect(await compat(engine, 'download-mimetype')).to.include({ needed: null, applied: true });
    });
  });

  describe('ready-race (a warm profile syncs before whatsapp-web.js listens, READY_RACE_BUILD)', () => {
    it('without the fix a restart from the saved profile never gets ready; with it, ready comes', async () => {
      const first = await linked(READY_RACE_BUILD); // linking is not a warm start
      await first.stop();

      // whatsapp-web.js's initialize() resolves (the page loaded): only its events never come
      const stuck = h.engine({ compat: { disable: ['ready-race'] } });
      const events: string[] = [];
      for (const name of ['qr', 'authenticated', 'ready', 'disconnected'] as const) {
        stuck.on(name, () => events.push(name));
      }
      await stuck.start();
      // synced, and whatsapp-web.js listens now: too late
      await h.until(
        'window.__double.Socket.hasSynced && window.__double.Socket.listenerCount("change:hasSynced") > 0',
      );
      await sleep(1_500); // the window in which READY would follow a synced event
      expect(events).to.deep.equal([]);
      await stuck.stop();

      const engine = await start([], false);
      expect(await compat(engine, 'ready-race')).to.include({ needed: true, applied: true });
      await engine.send(ALICE.pn, { kind: 'text', text: 'back', options: {} });
    });
  });

  describe('onboarding-modal (logout unless acknowledged, onboardingModalBuild: a Portuguese dialog)', () => {
    const LOGOUT_MS = 2_500;

    it('without the fix the phone logs the device out soon after ready', async () => {
      const engine = await linked(onboardingModalBuild(LOGOUT_MS), ['onboarding-modal']);
      const ended = nextEvent(engine, 'disconnected', undefined, LOGOUT_MS + 5_000);
      expect((await ended)[0]).to.equal('logout');
    });

    it('with the fix the modal is closed by its structure (not its words) and the session stays', async () => {
      const engine = await linked(onboardingModalBuild(LOGOUT_MS));
      const events: string[] = [];
      engine.on('disconnected', (reason) => events.push(reason));
      await sleep(LOGOUT_MS + 1_500);
      expect(events).to.deep.equal([]);
      const page = await h.page();
      expect(await page.evaluate('document.querySelector("[role=dialog]")')).to.equal(null);
      expect(await page.evaluate('window.__double.modalShown')).to.equal(1);
      expect(await compat(engine, 'onboarding-modal')).to.include({ needed: true, applied: true });
      await engine.send(ALICE.pn, { kind: 'text', text: 'still here', options: {} });
    });
  });

  it('the newest build: with the fixes, text, media and downloads work, every capability is ok', async () => {
    const engine = await linked(NEWEST_BUILD);
    const text = await engine.send(ALICE.pn, { kind: 'text', text: 'hi', options: {} });
    const image = await engine.send(ALICE.pn, IMAGE);
    const sent = await h.phone<Array<{ id: string }>>('sent');
    expect(sent.map((m) => m.id)).to.deep.equal([text.id, image.id]);
    expect(await h.phone('sentMedia', image.id)).to.equal(PNG.toString('base64'));
    const file = await engine.downloadMedia(await imageFromAlice(engine));
    expect(file.data.equals(PNG)).to.equal(true);
    const health = await engine.ops.account.checkHealth();
    expect(health.build).to.equal(NEWEST_BUILD.version);
    // the build the fixes were checked against is the double's newest (docs/engines.md, Upgrading)
    expect(NEWEST_BUILD.version).to.equal(COMPAT_WEB_VERSION);
    expect(Object.values(health.capabilities).every((c) => c.ok)).to.equal(true);
    const applied = health.compat.filter((r) => r.needed === true && r.applied).map((r) => r.id);
    expect(applied).to.have.members([
      'page-errors',
      'msg-key-serialized',
      'media-send-id',
      'forward-bundle',
      'group-description-options',
      'block-contact-lid',
      'status-ranking-gate',
      'status-media-options',
    ]);
    // a guard, not a probe: the MIME check's rollout flag cannot be seen from the page
    expect(await compat(engine, 'download-mimetype')).to.include({ applied: true });
  });

  // The baseline on purpose: a fix must change nothing on a build without the change it answers.
  describe('the baseline build (none of the changes)', () => {
    it('the fixes change nothing: no probe says needed, and every operation behaves as with all of them disabled', async () => {
      const outcomes: unknown[] = [];
      for (const disable of [ALL, []]) {
        const engine = await linked(BASELINE_BUILD, disable);
        const text = await engine.send(ALICE.pn, { kind: 'text', text: 'hi', options: {} });
        const image = await engine.send(ALICE.pn, IMAGE);
        const file = await engine.downloadMedia(await imageFromAlice(engine));
        const sent = await h.phone<Array<{ id: string; type: string }>>('sent');
        const results = (await engine.ops.account.checkHealth()).compat;
        outcomes.push({
          ids: sent.map((m) => m.id).join() === [text.id, image.id].join(),
          types: sent.map((m) => m.type),
          uploaded: await h.phone('sentMedia', image.id),
          downloaded: file.data.toString('base64'),
        });
        for (const id of ALL) {
          const result = results.find((r) => r.id === id);
          expect(result?.needed, `${id} ${result?.detail}`).to.not.equal(true);
        }
        await h.cleanup();
      }
      expect(outcomes[1]).to.deep.equal(outcomes[0]);
      expect(outcomes[0]).to.deep.include({ ids: true, types: ['chat', 'image'] });
    });
  });
});
