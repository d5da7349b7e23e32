/**
 * The wwebjs engine with its compat layer and health probe: the fake whatsapp-web.js Client (its
 * events and linking) whose page is a real Chromium page with a synthetic WhatsApp Web surface
 * (a July-2026-style message key). `ready` reaches the engine's listeners only once the fixes are
 * in; `checkHealth()` reports the page's build, the library and the fixes. The double repeats this
 * on whatsapp-web.js's real injection.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import { engineSchema } from '../../src/config/schema.js';
import { DEFAULT_BROWSER_PATHS, isExecutableFile } from '../../src/engines/wwebjs/browser.js';
import { createWwebjsEngineFactory, type WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { nextEvent } from './engine-contract.js';
import { BOT, FakeWhatsAppNetwork } from '../helpers/fake-wwebjs-client.js';

const SURFACE = `<script>(() => {
  class Wid { constructor(s) { this._serialized = s; } toString() { return this._serialized; } }
  class MsgKey {
    constructor(o) { this.fromMe = o.selfDir === 'out'; this.remote = o.to; this.id = o.id;
      this.$1 = [this.fromMe, String(this.remote), this.id].join('_'); }
    toString() { return this.$1; }
  }
  const fn = () => undefined;
  const modules = {
    WAWebWidFactory: { createWid: (s) => new Wid(s) },
    WAWebMsgKey: MsgKey,
    WAWebSendMsgChatAction: { addAndSendMsgToChat: fn },
    WAWebPrepRawMedia: { prepRawMedia: fn },
    WAWebMediaMmsV4Upload: { uploadMedia: fn },
    WAWebDownloadManager: { downloadManager: { downloadAndMaybeDecrypt: async () => new ArrayBuffer(1) } },
    WAWebApiContact: { getCurrentLid: fn, getPhoneNumber: fn },
    WAWebChatForwardMessage: { forwardMessages: fn },
    WAWebGroupModifyInfoJob: { setGroupDescription: (wid, desc, id, prev) => undefined },
    WAWebCollections: { GroupMetadata: { find: fn, getModelsArray: fn }, Msg: { getModelsArray: () => [] } },
    WAWebSocketModel: { Socket: { hasSynced: true } },
  };
  window.require = (name) => {
    if (!(name in modules)) throw new Error('Requiring unknown module "' + name + '"');
    return modules[name];
  };
  window.WWebJS = {
    sendMessage: fn,
    processMediaData: async () => ({ type: 'image' }),
    enforceLidAndPnRetrieval: fn,
    getMessageModel: (m) => ({ id: { fromMe: m.id.fromMe, remote: String(m.id.remote), id: m.id.id } }),
  };
  window.Debug = { VERSION: '2.3000.1047780587' };
})();</script>`;

describe('wwebjs engine: compat layer and health (fake Client, real page)', function () {
  this.timeout(30_000);
  let browser: Browser;
  let page: Page;
  let dir: string;

  before(async () => {
    const executablePath = [process.env.PUPPETEER_EXECUTABLE_PATH, ...DEFAULT_BROWSER_PATHS].find(
      (p) => p && isExecutableFile(p),
    );
    if (!executablePath) throw new Error('No Chromium: apt-get install -y chromium');
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    page = await browser.newPage();
    await page.setContent(SURFACE);
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-engine-compat-'));
  });
  after(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fires ready after the fixes are in, and reports the build, the library and the fixes', async () => {
    const network = new FakeWhatsAppNetwork();
    const bindings = network.bindings();
    const createClient = bindings.createClient;
    bindings.createClient = (options) => {
      const client = createClient(options);
      const initialize = client.initialize.bind(client);
      client.initialize = async () => {
        await initialize();
        // the fake page runs code in the real one
        Object.assign(client.pupPage!, { evaluate: page.evaluate.bind(page) });
      };
      return client;
    };
    const factory = createWwebjsEngineFactory(
      engineSchema.parse({ type: 'whatsapp-web.js' }) as WwebjsEngineConfig,
      {
        bindings,
        browserEnvironment: { env: {}, isRoot: false, isExecutable: () => true },
        isProcessAlive: () => false,
      },
    );
    const engine = (await factory({
      clientName: 'bot',
      store: new LocalSessionStore(dir),
      logger: pino({ level: 'silent' }),
    })) as WwebjsEngine;
    try {
      const qr = nextEvent(engine, 'qr');
      const ready = nextEvent(engine, 'ready').then(() =>
        page.evaluate(() => {
          const w = globalThis as never as {
            WWebJS: { processMediaData: { wakit?: boolean }; getMessageModel: { wakit?: boolean } };
          };
          return [
            w.WWebJS.processMediaData.wakit === true,
            w.WWebJS.getMessageModel.wakit === true,
          ];
        }),
      );
      await engine.start();
      await network.link((await qr)[0], BOT);
      // at `ready` the ready-phase fixes (media guard, message models) were in the page already
      expect(await ready).to.deep.equal([true, true]);

      const health = await engine.ops.account.checkHealth();
      expect(health.build).to.equal('2.3000.1047780587');
      expect(health.library).to.equal('whatsapp-web.js 1.34.7');
      expect(Object.values(health.capabilities).every((c) => c.ok)).to.equal(true);
      const compat = Object.fromEntries(health.compat.map((r) => [r.id, r]));
      expect(compat['page-errors']).to.deep.include({ applied: true });
      expect(compat['msg-key-serialized']).to.deep.include({ needed: true, applied: true });
      expect(compat['media-send-id']).to.deep.include({ needed: null, applied: true });
      expect(compat['download-mimetype']).to.deep.include({ needed: null, applied: true });

      // a prep result without an id is handed over as it is: this build is untouched
      const untouched = await page.evaluate(async () => {
        const w = globalThis as never as { WWebJS: { processMediaData(): Promise<object> } };
        const data = await w.WWebJS.processMediaData();
        return Object.keys(data);
      });
      expect(untouched).to.deep.equal(['type']);
    } finally {
      await engine.stop();
    }
  });
});
