/**
 * The October 2026 WhatsApp Web breaks on the double's builds, with the real whatsapp-web.js
 * 1.34.7: on the build with the change, the user-visible operation fails without its compat fix
 * (switched off as an operator would, `engine.compat.disable`) and works with it.
 */
import { expect } from 'chai';
import { nextEvent } from '../engines/engine-contract.js';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { CompatResult } from '../../src/engines/health.js';
import {
  BASELINE_BUILD,
  BLOCK_LID_BUILD,
  FORWARD_LAZY_BUILD,
  GROUP_DESCRIPTION_BUILD,
  NEWEST_BUILD,
  QR_REFRESH_BUILD,
  STATUS_GATING_GONE_BUILD,
  type DoubleBuild,
} from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE, TEAM_GROUP } from './world.js';

interface Sent {
  id: string;
  to: string;
  type?: string;
  body?: string;
  caption?: string;
  forwarded?: boolean;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('the October breaks on the WhatsApp Web double (real whatsapp-web.js 1.34.7)', function () {
  this.timeout(60_000);
  let h: DoubleHarness;

  afterEach(async () => {
    await h?.cleanup();
  });

  /** A new harness on `build`; an engine with these fixes disabled, linked by QR and READY. */
  async function linked(build: DoubleBuild, disable: string[] = []): Promise<WwebjsEngine> {
    h = await DoubleHarness.create({ build });
    const engine = h.engine({ compat: { disable } });
    const qr = nextEvent(engine, 'qr', undefined, 15_000);
    const ready = nextEvent(engine, 'ready', undefined, 15_000);
    await engine.start();
    await h.link((await qr)[0]);
    await ready;
    return engine;
  }

  async function compat(engine: WwebjsEngine, id: string): Promise<CompatResult> {
    const found = (await engine.ops.account.checkHealth()).compat.find((fix) => fix.id === id);
    if (!found) expect.fail(`no compat result ${id}`);
    return found;
  }

  /** A text from Alice, received by the engine; its message id. */
  async function textFromAlice(engine: WwebjsEngine): Promise<string> {
    const incoming = nextEvent(engine, 'message', undefined, 10_000);
    await h.phone('receive', { from: ALICE.pn, body: 'pass it on' });
    return (await incoming)[0].id;
  }

  describe('qr-refresh (an idle QR, Cmd.refreshQR gone: QR_REFRESH_BUILD)', () => {
    const REFS = QR_REFRESH_BUILD.qrIdleAfterRefs!;
    /** Ten QR lifetimes: a refresh shows its QR within the first. */
    const WAIT_MS = QR_REFRESH_BUILD.qrRefreshMs * 10;

    /** An engine started unlinked; resolves with it and the QR codes it emitted so far. */
    async function unlinked(disable: string[]): Promise<[WwebjsEngine, string[]]> {
      h = await DoubleHarness.create({ build: QR_REFRESH_BUILD });
      const engine = h.engine({ compat: { disable } });
      const codes: string[] = [];
      engine.on('qr', (qr) => codes.push(qr));
      await engine.start();
      return [engine, codes];
    }

    it('without the fix an idle QR never comes back: no new QR, the phone cannot link', async () => {
      const [engine, codes] = await unlinked(['qr-refresh']);
      const page = await h.page();
      await page.waitForFunction("window.__waDouble.state().socket === 'UNPAIRED_IDLE'", {
        timeout: WAIT_MS,
      });
      expect(codes).to.not.deep.equal([]);
      const next = nextEvent(engine, 'qr', undefined, WAIT_MS);
      expect(
        await next.then(
          () => 'qr',
          (e: Error) => e.message,
        ),
      ).to.match(/no "qr" event/);
      expect(await h.phone<{ socket: string }>('state')).to.include({ socket: 'UNPAIRED_IDLE' });
      const scan = await h.link(codes[codes.length - 1]).then(
        () => 'linked',
        (e: Error) => e.message,
      );
      expect(scan).to.match(/is not current/);
    });

    it('with the fix the idle QR is refreshed in the page: a new QR comes and the phone links', async () => {
      const [engine] = await unlinked([]);
      const page = await h.page();
      await page.waitForFunction("(window.__wakitCompat?.hits?.['qr-refresh'] ?? 0) > 0", {
        timeout: REFS * WAIT_MS,
      });
      // a QR after the fix refreshed the idle one: the ref is current, the phone can scan it
      const [qr] = await nextEvent(engine, 'qr', undefined, WAIT_MS);
      const ready = nextEvent(engine, 'ready', undefined, 15_000);
      await h.link(qr);
      await ready;
      expect(await compat(engine, 'qr-refresh')).to.include({ needed: true, applied: true });
    });
  });

  describe('forward-bundle (the forward module not loaded: FORWARD_LAZY_BUILD)', () => {
    it('without the fix a forward fails with the reported error and nothing is sent', async () => {
      const engine = await linked(FORWARD_LAZY_BUILD, ['forward-bundle']);
      const error = (await engine.forward(await textFromAlice(engine), TEAM_GROUP.id).then(
        () => expect.fail('expected a failure'),
        (e: unknown) => e,
      )) as { code: string; cause?: Error };
      expect(error.code).to.equal('ENGINE_ERROR');
      expect(String(error.cause?.message)).to.contain(
        "Cannot read properties of undefined (reading 'forwardMessages')",
      );
      expect(await h.phone<Sent[]>('sent')).to.deep.equal([]);
      const health = await engine.ops.account.checkHealth();
      expect(health.capabilities['send.forward'].ok).to.equal(false);
    });

    it('with the fix the message is forwarded to the group', async () => {
      const engine = await linked(FORWARD_LAZY_BUILD);
      const { id } = await engine.forward(await textFromAlice(engine), TEAM_GROUP.id);
      const sent = await h.phone<Sent[]>('sent');
      expect(sent.map((m) => [m.id, m.to, m.body])).to.deep.equal([
        [id, TEAM_GROUP.id, 'pass it on'],
      ]);
      expect(await compat(engine, 'forward-bundle')).to.include({ needed: true, applied: true });
      const health = await engine.ops.account.checkHealth();
      expect(health.capabilities['send.forward'].ok).to.equal(true);
    });
  });

  describe('group-description-options (setGroupDescription(options): GROUP_DESCRIPTION_BUILD)', () => {
    it("without the fix the description change fails: toJid of undefined, the group's unchanged", async () => {
      const engine = await linked(GROUP_DESCRIPTION_BUILD, ['group-description-options']);
      const error = (await engine.ops.groups.setDescription(TEAM_GROUP.id, 'T minus 1').then(
        () => expect.fail('expected a failure'),
        (e: unknown) => e,
      )) as { code: string; cause?: Error };
      expect(error.code).to.equal('ENGINE_ERROR');
      expect(String(error.cause?.message)).to.contain(
        "Cannot read properties of undefined (reading 'toJid')",
      );
      expect((await engine.ops.groups.get(TEAM_GROUP.id)).description).to.not.equal('T minus 1');
      const health = await engine.ops.account.checkHealth();
      expect(health.capabilities['groups.description'].ok).to.equal(false);
    });

    it('with the fix the description changes, as the network sees it', async () => {
      const engine = await linked(GROUP_DESCRIPTION_BUILD);
      await engine.ops.groups.setDescription(TEAM_GROUP.id, 'T minus 1');
      expect((await engine.ops.groups.get(TEAM_GROUP.id)).description).to.equal('T minus 1');
      expect(await compat(engine, 'group-description-options')).to.include({
        needed: true,
        applied: true,
      });
    });
  });

  describe('block-contact-lid (blocking after the LID migration: BLOCK_LID_BUILD)', () => {
    it('without the fix blocking fails: the target helper is gone, nobody is blocked', async () => {
      const engine = await linked(BLOCK_LID_BUILD, ['block-contact-lid']);
      const error = (await engine.ops.contacts.setBlocked(ALICE.pn, true).then(
        () => expect.fail('expected a failure'),
        (e: unknown) => e,
      )) as { code: string; cause?: Error };
      expect(error.code).to.equal('ENGINE_ERROR');
      expect(String(error.cause?.message)).to.contain(
        'getContactToBlockOnlyUseIfNoAssociatedChat is not a function',
      );
      expect(await h.phone('blocked')).to.deep.equal([]);
    });

    it('with the fix the chat-owning (LID) identity is blocked and unblocked', async () => {
      const engine = await linked(BLOCK_LID_BUILD);
      // Alice writes from her LID: her chat is keyed by it, as a person's chat is after the migration
      const incoming = nextEvent(engine, 'message', undefined, 10_000);
      await h.phone('receive', { from: ALICE.lid, body: 'hi' });
      await incoming;
      await engine.ops.contacts.setBlocked(ALICE.pn, true);
      expect(await h.phone('blocked')).to.deep.equal([ALICE.lid]);
      await engine.ops.contacts.setBlocked(ALICE.pn, false);
      expect(await h.phone('blocked')).to.deep.equal([]);
      expect(await compat(engine, 'block-contact-lid')).to.include({ needed: true, applied: true });
    });
  });

  describe('status-ranking-gate (the status ranking gate gone: STATUS_GATING_GONE_BUILD)', () => {
    const STATUS = 'status@broadcast';
    const post = { kind: 'text', text: 'out of office today', options: {} } as const;

    it('without the fix a status send fails: the gate is not a function, nothing is posted', async () => {
      const engine = await linked(STATUS_GATING_GONE_BUILD, ['status-ranking-gate']);
      const error = (await engine.send(STATUS, post).then(
        () => expect.fail('expected a failure'),
        (e: unknown) => e,
      )) as { code: string; cause?: Error };
      expect(error.code).to.equal('ENGINE_ERROR');
      expect(String(error.cause?.message)).to.contain(
        'canCheckStatusRankingPosterGating is not a function',
      );
      expect(await h.phone<Sent[]>('sent')).to.deep.equal([]);
      expect(await compat(engine, 'status-ranking-gate')).to.include({
        needed: true,
        applied: false,
      });
    });

    it('with the fix the text status is posted to status@broadcast', async () => {
      const engine = await linked(STATUS_GATING_GONE_BUILD);
      await engine.send(STATUS, post);
      const sent = await h.phone<Sent[]>('sent');
      expect(sent.map((m) => [m.to, m.body])).to.deep.equal([[STATUS, 'out of office today']]);
      expect(await compat(engine, 'status-ranking-gate')).to.include({
        needed: true,
        applied: true,
      });
    });
  });
  describe('status-media-options (sendStatusMediaMsgAction(options): NEWEST_BUILD)', () => {
    const STATUS = 'status@broadcast';
    const image = {
      kind: 'image',
      media: { data: PNG, mimetype: 'image/png', filename: 'dot.png' },
      caption: 'new menu',
    } as const;

    it("without the fix an image status fails inside the page: undefined's id, nothing is posted", async () => {
      const engine = await linked(NEWEST_BUILD, ['status-media-options']);
      const error = (await engine.send(STATUS, image).then(
        () => expect.fail('expected a failure'),
        (e: unknown) => e,
      )) as { code: string; cause?: Error };
      expect(error.code).to.equal('ENGINE_ERROR');
      expect(String(error.cause?.message)).to.contain(
        "Cannot read properties of undefined (reading 'id')",
      );
      expect(await h.phone<Sent[]>('sent')).to.deep.equal([]);
      expect(await compat(engine, 'status-media-options')).to.include({
        needed: true,
        applied: false,
      });
    });

    it('with the fix the image is posted to status@broadcast, with its bytes and caption', async () => {
      const engine = await linked(NEWEST_BUILD);
      const { id } = await engine.send(STATUS, image);
      const sent = await h.phone<Sent[]>('sent');
      expect(sent.map((m) => [m.id, m.to, m.type, m.caption])).to.deep.equal([
        [id, STATUS, 'image', 'new menu'],
      ]);
      expect(await h.phone('sentMedia', id)).to.equal(PNG.toString('base64'));
      expect(await compat(engine, 'status-media-options')).to.include({
        needed: true,
        applied: true,
      });
    });

    it('the baseline build keeps the positional call: posted without the fix, which is not needed', async () => {
      const engine = await linked(BASELINE_BUILD, ['status-media-options']);
      const { id } = await engine.send(STATUS, image);
      const sent = await h.phone<Sent[]>('sent');
      expect(sent.map((m) => [m.id, m.to, m.type])).to.deep.equal([[id, STATUS, 'image']]);
      expect(await h.phone('sentMedia', id)).to.equal(PNG.toString('base64'));
      expect(await compat(engine, 'status-media-options')).to.include({ needed: false });
    });
  });
});
