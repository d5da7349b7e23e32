/**
 * The compat layer's framework in real Chromium (puppeteer as whatsapp-web.js drives it), on small
 * synthetic pages: unminified page errors, probe-then-fix installation per phase, isolation of a
 * failing fix, operator fixes. The fixes' own failing-then-passing tests run on the WhatsApp Web
 * double's builds (test/wa-web-double/); here the message-key fix runs on a two-module stand-in
 * only to prove the install path (needed → fixed; not needed → untouched).
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { pino } from 'pino';
import { DEFAULT_BROWSER_PATHS, isExecutableFile } from '../../src/engines/wwebjs/browser.js';
import {
  BUILTIN_FIXES,
  CompatLayer,
  PageError,
  loadFixes,
  unminifyPageErrors,
  type LoadedFix,
} from '../../src/engines/wwebjs/compat/index.js';
import { isWakitError } from '../../src/errors/index.js';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A page whose errors look like WhatsApp Web's minified ones. */
const MINIFIED_ERRORS = `<script>
  class r extends Error {}
  window.wrapped = () => {
    function innerFailure() { return undefined.id; }
    try { innerFailure(); } catch (e) { const w = new r('r'); w.name = 'r'; w.cause = e; throw w; }
  };
  window.throwString = () => { throw 'plain'; };
  window.dataError = () => {
    throw new DOMException("Failed to execute 'get' on 'IDBObjectStore': No key or key range specified.", 'DataError');
  };
</script>`;

/** `WAWebMsgKey` and `WAWebWidFactory` as far as the key fix reaches; `renamed` as in July 2026. */
const keyPage = (renamed: boolean): string => `<script>
  class Wid { constructor(s) { this._serialized = s; } toString() { return this._serialized; } }
  class MsgKey {
    constructor(o) {
      this.fromMe = o.selfDir === 'out'; this.remote = o.to; this.id = o.id;
      this.${renamed ? '$1' : '_serialized'} = [this.fromMe, String(this.remote), this.id].join('_');
    }
    toString() { return this.${renamed ? '$1' : '_serialized'}; }
  }
  const modules = { WAWebMsgKey: MsgKey, WAWebWidFactory: { createWid: (s) => new Wid(s) } };
  window.require = (name) => { if (!(name in modules)) throw new Error('no module ' + name); return modules[name]; };
</script>`;

const builtin = (id: string): LoadedFix[] =>
  BUILTIN_FIXES.filter((f) => f.id === id).map((f) => ({ ...f, source: 'builtin' }));

describe('wwebjs compat layer (real Chromium)', function () {
  this.timeout(30_000);
  let browser: Browser;
  let page: Page;
  let dir: string;
  const log = pino({ level: 'silent' });

  before(async () => {
    const executablePath = [process.env.PUPPETEER_EXECUTABLE_PATH, ...DEFAULT_BROWSER_PATHS].find(
      (p) => p && isExecutableFile(p),
    );
    if (!executablePath) throw new Error('No Chromium: apt-get install -y chromium');
    browser = await puppeteer.launch({ executablePath, headless: true, args: FLAGS });
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-compat-'));
  });
  after(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    page = await browser.newPage();
  });
  afterEach(async () => {
    await page.close();
  });

  describe('unminified page errors', () => {
    it('without the wrapper a minified page error reaches Node as "r: r"; with it, the real name, message, cause and page stack', async () => {
      await page.setContent(MINIFIED_ERRORS);
      const raw = await page
        .evaluate(() => (globalThis as never as { wrapped(): void }).wrapped())
        .catch((e: unknown) => e);
      expect(String(raw)).to.equal('r: r');

      expect(unminifyPageErrors(page)).to.equal(true);
      const error = await page
        .evaluate(() => (globalThis as never as { wrapped(): void }).wrapped())
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(PageError);
      const pageError = error as PageError;
      expect(pageError.message).to.equal(
        "Evaluation failed: r: r (caused by TypeError: Cannot read properties of undefined (reading 'id'))",
      );
      expect(pageError.page.cause).to.deep.include({ name: 'TypeError' });
      expect(pageError.stack).to.include('--- page ---');
      expect(pageError.stack).to.match(/at innerFailure/);

      const dataError = (await page
        .evaluate(() => (globalThis as never as { dataError(): void }).dataError())
        .catch((e: unknown) => e)) as PageError;
      expect(dataError.name).to.equal('DataError');
      expect(dataError.message).to.equal(
        "Evaluation failed: DataError: Failed to execute 'get' on 'IDBObjectStore': No key or key range specified.",
      );
      expect(dataError.page.constructorName).to.equal('DOMException');
    });

    it('keeps values, arguments, string expressions and puppeteer’s own errors as they were', async () => {
      await page.setContent(MINIFIED_ERRORS);
      unminifyPageErrors(page);
      unminifyPageErrors(page); // idempotent
      expect(await page.evaluate((a: number, b: number) => a + b, 2, 3)).to.equal(5);
      expect(await page.evaluate((s: string) => Promise.resolve(`${s}!`), 'hi')).to.equal('hi!');
      expect(await page.evaluate('1 + 1')).to.equal(2);
      const thrownString = await page
        .evaluate(() => (globalThis as never as { throwString(): void }).throwString())
        .catch((e: unknown) => e);
      expect(thrownString).to.be.instanceOf(PageError);
      expect((thrownString as PageError).message).to.equal('Evaluation failed: string: plain');
    });
  });

  describe('probe, then fix, per phase', () => {
    const fakeClient = (p: Page) => {
      const calls: string[] = [];
      return {
        calls,
        client: {
          pupPage: p,
          inject(): Promise<string> {
            calls.push('inject');
            return Promise.resolve('injected');
          },
        },
      };
    };
    const idle = () => new Promise((resolve) => setTimeout(resolve, 200));

    it('installs the message-key fix where a key keeps its id in a minified field, after inject and at READY', async () => {
      await page.setContent(keyPage(true));
      const fixes = builtin('msg-key-serialized');
      const layer = new CompatLayer(fixes, log);
      const { client, calls } = fakeClient(page);
      layer.attach(client);
      expect(await client.inject()).to.equal('injected');
      expect(calls).to.deep.equal(['inject']);
      await idle();
      const [pageErrors, key] = layer.results();
      expect(pageErrors).to.deep.include({ id: 'page-errors', applied: true });
      expect(key).to.deep.include({ id: 'msg-key-serialized', needed: true, applied: true });
      expect(key.detail).to.match(/reads \$1/);
      const serialized = await page.evaluate(() => {
        const w = globalThis as never as { require(n: string): never };
        const MsgKey = w.require('WAWebMsgKey') as new (o: object) => { _serialized: string };
        const wid = (w.require('WAWebWidFactory') as { createWid(s: string): object }).createWid(
          '1@c.us',
        );
        return new MsgKey({ to: wid, id: 'ABC', selfDir: 'out' })._serialized;
      });
      expect(serialized).to.equal('true_1@c.us_ABC');
      // a later probe keeps saying that this build needs it
      const probed = await layer.probe();
      expect(probed.find((r) => r.id === 'msg-key-serialized')).to.deep.include({ needed: true });
    });

    it('leaves a build without the change untouched', async () => {
      await page.setContent(keyPage(false));
      const fixes = builtin('msg-key-serialized');
      const layer = new CompatLayer(fixes, log);
      layer.attach(fakeClient(page).client);
      await layer.ready();
      expect(layer.results()[1]).to.deep.include({ needed: false, applied: false });
      const accessor = await page.evaluate(() => {
        const w = globalThis as never as { require(n: string): { prototype: object } };
        return (
          Object.getOwnPropertyDescriptor(w.require('WAWebMsgKey').prototype, '_serialized') !==
          undefined
        );
      });
      expect(accessor).to.equal(false);
    });

    it('runs injected-phase fixes after every inject and ready-phase ones only at READY; a failing fix does not stop the others', async () => {
      await page.setContent('<p>blank</p>');
      const fix = (id: string, phase: 'injected' | 'ready', body: string): LoadedFix => ({
        id,
        summary: id,
        upstream: [],
        dropWhen: 'never',
        phase,
        covers: [],
        source: 'test',
        probe: '() => ({ needed: true })',
        fix: body,
      });
      const layer = new CompatLayer(
        [
          fix(
            'count-injects',
            'injected',
            '() => { globalThis.injects = (globalThis.injects || 0) + 1; return { applied: true }; }',
          ),
          fix('broken', 'injected', '() => { throw new TypeError("boom in the page"); }'),
          fix(
            'at-ready',
            'ready',
            '() => { globalThis.readyFix = true; return { applied: true, detail: "set" }; }',
          ),
        ],
        log,
      );
      const { client } = fakeClient(page);
      layer.attach(client);
      await client.inject();
      await client.inject();
      await idle();
      expect(
        await page.evaluate('[globalThis.injects, globalThis.readyFix === true]'),
      ).to.deep.equal([2, false]);
      await layer.ready();
      expect(
        await page.evaluate('[globalThis.injects, globalThis.readyFix === true]'),
      ).to.deep.equal([3, true]);
      const byId = Object.fromEntries(layer.results().map((r) => [r.id, r]));
      expect(byId.broken).to.deep.include({ needed: true, applied: false });
      expect(byId.broken.detail).to.equal('fix failed: TypeError: boom in the page');
      expect(byId['at-ready']).to.deep.include({ applied: true, detail: 'set' });
    });
  });

  describe('guards (mechanics on a stand-in; the double reproduces the real breaks)', () => {
    /** A prep result carrying an internal id, and a download that wants a MIME type. */
    const GUARDED = `<script>(() => {
      const modules = {
        WAWebDownloadManager: { downloadManager: { downloadAndMaybeDecrypt: async (a) => {
          (window.downloads = window.downloads || []).push(a.mimetype || null);
          if (!a.mimetype) { const e = new Error('InvalidMediaFileType'); e.name = 'r'; throw e; }
          return 'bytes of ' + a.mimetype;
        } } },
        WAWebCollections: { Msg: { getModelsArray: () => [{ filehash: 'H1', mimetype: 'image/jpeg' }] } },
      };
      window.require = (name) => modules[name];
      window.WWebJS = {
        processMediaData: async () => {
          const data = { type: 'image', mimetype: 'image/png', __x_id: undefined };
          data.toJSON = () => ({ type: 'image', __x_id: undefined });
          return data;
        },
      };
    })();</script>`;

    it('media-send-id hides the prep id from the spread; download-mimetype passes the owner’s MIME type up front (one call)', async () => {
      await page.setContent(GUARDED);
      const layer = new CompatLayer(
        [...builtin('media-send-id'), ...builtin('download-mimetype')],
        log,
      );
      layer.attach({ pupPage: page });
      await layer.ready();
      const seen = await page.evaluate(async () => {
        const w = globalThis as never as {
          WWebJS: { processMediaData(): Promise<{ toJSON(): object }> };
          require(n: string): {
            downloadManager: { downloadAndMaybeDecrypt(a: object): Promise<string> };
          };
        };
        const data = await w.WWebJS.processMediaData();
        const message = { id: 'KEY', ...data, ...data.toJSON() };
        const bytes = await w
          .require('WAWebDownloadManager')
          .downloadManager.downloadAndMaybeDecrypt({ filehash: 'H1' });
        const downloads = (globalThis as never as { downloads: unknown[] }).downloads;
        return { keys: Object.keys(message), id: (message as { id: string }).id, bytes, downloads };
      });
      expect(seen.id).to.equal('KEY');
      expect(seen.keys).to.not.include('__x_id');
      expect(seen.bytes).to.equal('bytes of image/jpeg');
      expect(seen.downloads).to.deep.equal(['image/jpeg']); // no refused first call

      const probed = Object.fromEntries((await layer.probe()).map((r) => [r.id, r]));
      expect(probed['media-send-id']).to.deep.include({ needed: true, applied: true });
      expect(probed['download-mimetype']).to.deep.include({ needed: null, applied: true });
    });
  });

  describe('operator fixes (engine.compat.extra)', () => {
    it('loads a fix file like the built-in ones and reports a bad one as CONFIG_INVALID naming the file', async () => {
      await writeFile(
        path.join(dir, 'my-fix.mjs'),
        `export const id = 'my-fix';
export const upstream = 'https://example.invalid/issue/1';
export const probe = () => ({ needed: true });
export const fix = () => { globalThis.myFix = 'on'; return { applied: true }; };
`,
      );
      await writeFile(
        path.join(dir, 'bad-fix.mjs'),
        `export default { id: 'Bad Id', probe: 1 };\n`,
      );
      const fixes = await loadFixes({ extra: ['./my-fix.mjs'] }, dir);
      expect(fixes.map((f) => f.id)).to.deep.equal([...BUILTIN_FIXES.map((f) => f.id), 'my-fix']);
      const mine = fixes.at(-1)!;
      expect(mine).to.deep.include({ source: './my-fix.mjs', phase: 'ready' });
      expect(mine.upstream).to.deep.equal(['https://example.invalid/issue/1']);

      await page.setContent('<p>blank</p>');
      const layer = new CompatLayer([mine], log);
      layer.attach({ pupPage: page });
      await layer.ready();
      expect(await page.evaluate('globalThis.myFix')).to.equal('on');
      expect(layer.results()[1]).to.deep.include({
        id: 'my-fix',
        source: './my-fix.mjs',
        applied: true,
      });

      const bad = await loadFixes({ extra: ['./bad-fix.mjs'] }, dir).catch((e: unknown) => e);
      expect(isWakitError(bad, 'CONFIG_INVALID')).to.equal(true);
      expect((bad as Error).message).to.match(/bad-fix\.mjs is not a compat fix: id: kebab-case/);
      const clash = await writeFile(
        path.join(dir, 'clash.mjs'),
        `export default { id: 'ready-race', probe: '() => ({ needed: false })', fix: '() => ({ applied: true })' };\n`,
      ).then(() => loadFixes({ extra: ['./clash.mjs'] }, dir).catch((e: unknown) => e));
      expect((clash as Error).message).to.match(/reuses the fix id "ready-race"/);
      const missing = await loadFixes({ extra: ['./nope.mjs'] }, dir).catch((e: unknown) => e);
      expect((missing as Error).message).to.match(/nope\.mjs could not be loaded/);
    });
  });

  describe('disabled fixes (engine.compat.disable)', () => {
    it('a disabled fix is probed and reported but never installed; an unknown id is CONFIG_INVALID', async () => {
      const operator = {
        id: 'my-fix',
        summary: '',
        upstream: [],
        dropWhen: '',
        phase: 'ready' as const,
        covers: [],
        probe: () => ({ needed: true }),
        fix: () => {
          (globalThis as { myFix?: string }).myFix = 'on';
          return { applied: true };
        },
      };
      await page.setContent('<p>blank</p>');
      const layer = new CompatLayer([{ ...operator, source: 'x', disabled: true }], log);
      layer.attach({ pupPage: page });
      await layer.ready();
      expect(await page.evaluate('globalThis.myFix')).to.equal(undefined);
      expect(layer.results()[1]).to.deep.include({ needed: true, applied: false });
      expect(layer.results()[1].detail).to.match(/^disabled \(engine\.compat\.disable\)/);

      const fixes = await loadFixes({ extra: [], disable: ['media-send-id'] }, dir);
      expect(fixes.filter((f) => f.disabled).map((f) => f.id)).to.deep.equal(['media-send-id']);
      const unknown = await loadFixes({ extra: [], disable: ['media-send'] }, dir).catch(
        (e: unknown) => e,
      );
      expect(isWakitError(unknown, 'CONFIG_INVALID')).to.equal(true);
      expect((unknown as Error).message).to.match(/media-send is not a built-in compat fix/);
    });
  });
});
