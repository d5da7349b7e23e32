/**
 * The wwebjs engine's health probe in real Chromium, on a synthetic page with the module surface
 * it looks at (the WhatsApp Web double runs it against whatsapp-web.js's real injection).
 */
import { expect } from 'chai';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { DEFAULT_BROWSER_PATHS, isExecutableFile } from '../../src/engines/wwebjs/browser.js';
import { BUILTIN_FIXES } from '../../src/engines/wwebjs/compat/index.js';
import { probeHealth } from '../../src/engines/wwebjs/health-probe.js';
import { isWakitError } from '../../src/errors/index.js';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];

/** Every module and `WWebJS` function the probe looks for; `omit` leaves some out. */
const surface = (omit: string[] = []): string => `<script>(() => {
  const omit = new Set(${JSON.stringify(omit)});
  class Wid { constructor(s) { this._serialized = s; } }
  class MsgKey { constructor(o) { this._serialized = ['true', o.to._serialized, o.id].join('_'); } }
  const fn = () => undefined;
  const modules = {
    WAWebWidFactory: { createWid: (s) => new Wid(s) },
    WAWebMsgKey: MsgKey,
    WAWebSendMsgChatAction: { addAndSendMsgToChat: fn },
    WAWebPrepRawMedia: { prepRawMedia: fn },
    WAWebMediaMmsV4Upload: { uploadMedia: fn },
    WAWebDownloadManager: { downloadManager: { downloadAndMaybeDecrypt: fn } },
    WAWebApiContact: { getCurrentLid: fn, getPhoneNumber: fn },
    WAWebChatForwardMessage: { forwardMessages: fn },
    WAWebGroupModifyInfoJob: { setGroupDescription: (wid, desc, id, prev) => undefined },
    WAWebCollections: { GroupMetadata: { find: fn, getModelsArray: fn } },
  };
  window.require = (name) => {
    if (omit.has(name) || !(name in modules)) throw new Error('Requiring unknown module "' + name + '"');
    return modules[name];
  };
  window.WWebJS = { sendMessage: fn, processMediaData: fn, enforceLidAndPnRetrieval: fn };
  window.Debug = { VERSION: '2.3000.1047780587' };
})();</script>`;

describe('wwebjs health probe (real Chromium)', function () {
  this.timeout(30_000);
  let browser: Browser;
  let page: Page;
  before(async () => {
    const executablePath = [process.env.PUPPETEER_EXECUTABLE_PATH, ...DEFAULT_BROWSER_PATHS].find(
      (p) => p && isExecutableFile(p),
    );
    if (!executablePath) throw new Error('No Chromium: apt-get install -y chromium');
    browser = await puppeteer.launch({ executablePath, headless: true, args: FLAGS });
    page = await browser.newPage();
  });
  after(() => browser?.close());

  it('reports the build, the library and every capability working on a complete surface', async () => {
    await page.setContent(surface());
    const probe = await probeHealth(page, [], BUILTIN_FIXES);
    expect(probe.build).to.equal('2.3000.1047780587');
    expect(probe.library).to.equal('whatsapp-web.js 1.34.7');
    expect(Object.values(probe.capabilities).every((c) => c.ok)).to.equal(true);
  });

  it('names what is missing, in the page’s own words, and marks what a needed-but-missing fix covers', async () => {
    await page.setContent(surface(['WAWebDownloadManager', 'WAWebApiContact']));
    const probe = await probeHealth(
      page,
      [{ id: 'media-send-id', source: 'builtin', needed: true, applied: false }],
      BUILTIN_FIXES,
    );
    expect(probe.capabilities['media.download']).to.deep.equal({
      ok: false,
      detail: 'Error: Requiring unknown module "WAWebDownloadManager"',
    });
    expect(probe.capabilities['contacts.lid'].ok).to.equal(false);
    expect(probe.capabilities['send.media']).to.deep.equal({
      ok: false,
      detail: 'compat fix media-send-id is needed but not installed',
    });
    expect(probe.capabilities['send.text'].ok).to.equal(true);
  });

  it('gives no verdict without a loaded page', async () => {
    const error = await probeHealth(null, [], BUILTIN_FIXES).catch((e: unknown) => e);
    expect(isWakitError(error, 'ENGINE_ERROR')).to.equal(true);
  });
});
