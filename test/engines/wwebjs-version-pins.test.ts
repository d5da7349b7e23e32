/**
 * Version policy (docs/engines.md): whatsapp-web.js and puppeteer are pinned exactly, because a
 * minor of either can change what the page code does; the compat layer was written against one
 * whatsapp-web.js. This fails when the installed library is another one: re-check every compat
 * fix (and its double test) before moving COMPAT_WWEBJS_VERSION.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { engineSchema } from '../../src/config/schema.js';
import {
  WEB_VERSION_ARCHIVE,
  buildClientOptions,
} from '../../src/engines/wwebjs/client-options.js';
import { COMPAT_WWEBJS_VERSION } from '../../src/engines/wwebjs/compat/index.js';
import { installedVersions } from '../../src/engines/wwebjs/installed.js';
import {
  archiveFileName,
  comparePin,
  pinnedBuild,
} from '../../src/engines/wwebjs/running-build.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';

const manifest = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { dependencies: Record<string, string> };

describe('wwebjs version pins', () => {
  it('the installed whatsapp-web.js is the one the compat layer was written for', () => {
    expect(installedVersions().whatsappWebJs).to.equal(COMPAT_WWEBJS_VERSION);
  });

  it('package.json pins whatsapp-web.js and puppeteer exactly, puppeteer at whatsapp-web.js’s own pin', () => {
    const installed = installedVersions();
    expect(manifest.dependencies['whatsapp-web.js']).to.equal(COMPAT_WWEBJS_VERSION);
    expect(manifest.dependencies.puppeteer).to.match(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies.puppeteer).to.equal(installed.puppeteerWanted);
    expect(installed.puppeteer).to.equal(manifest.dependencies.puppeteer);
  });
});

describe('WhatsApp Web pins: the archive file, no default pin, the running build', () => {
  const launch = { authStrategy: null, workDir: '/w/bot', executablePath: '/c', sandbox: true };
  const parse = (extra: Record<string, unknown>) =>
    engineSchema.parse({ type: 'whatsapp-web.js', ...extra }) as WwebjsEngineConfig;
  const build = (extra: Record<string, unknown>) =>
    buildClientOptions(parse(extra), launch, pino({ level: 'silent' }));

  it('names the file the wa-version archive has: 2.3000 builds with -alpha, older ones bare', () => {
    // wppconnect-team/wa-version html/: 2.3000.1047787617-alpha.html, 2.2412.54.html
    expect(archiveFileName('2.3000.1047780587')).to.equal('2.3000.1047780587-alpha');
    expect(archiveFileName('2.3000.1047780587-alpha')).to.equal('2.3000.1047780587-alpha');
    expect(archiveFileName('2.2412.54')).to.equal('2.2412.54');
    expect(archiveFileName('2.2212.8-beta')).to.equal('2.2212.8-beta');
  });

  it('asks the archive (or a mirror) for that file; a local cache by the bare version', () => {
    const pinned = build({ webVersion: '2.3000.1047780587' });
    expect(pinned).to.deep.include({
      webVersion: '2.3000.1047780587-alpha',
      webVersionCache: { type: 'remote', remotePath: WEB_VERSION_ARCHIVE },
    });
    const archiveUrl = WEB_VERSION_ARCHIVE.replace('{version}', String(pinned.webVersion));
    expect(archiveUrl).to.equal(
      'https://raw.githubusercontent.com/wppconnect-team/wa-version/main/html/2.3000.1047780587-alpha.html',
    );
    const url = 'http://127.0.0.1:8080/wa/{version}.html';
    expect(
      build({ webVersion: '2.3000.1047780587', webVersionCache: { type: 'remote', url } }),
    ).to.deep.include({
      webVersion: '2.3000.1047780587-alpha',
      webVersionCache: { type: 'remote', remotePath: url },
    });
    expect(() => build({ webVersionCache: { type: 'remote', url: 'http://x/a.html' } })).to.throw(
      /\{version\}/,
    );
    expect(() =>
      build({ webVersionCache: { type: 'remote', url: 'file:///{version}' } }),
    ).to.throw();
    expect(build({ webVersion: '2.3000.1047780587', webVersionCache: 'local' })).to.deep.include({
      webVersion: '2.3000.1047780587',
    });
  });

  it('has no default pin: unset, the live build whatever the cache', () => {
    for (const webVersionCache of ['remote', 'local']) {
      expect(build({ webVersionCache }).webVersion).to.equal(undefined);
      expect(pinnedBuild(parse({ webVersionCache }))).to.equal(null);
    }
    expect(pinnedBuild(parse({ webVersion: 'live' }))).to.equal(null);
    expect(pinnedBuild(parse({ webVersion: '2.3000.1047780587-alpha' }))).to.equal(
      '2.3000.1047780587',
    );
  });

  it('compares the pin with the build the page reports', () => {
    expect(comparePin('2.3000.1', '2.3000.1')).to.deep.equal({
      pinned: '2.3000.1',
      running: '2.3000.1',
      status: 'held',
    });
    expect(comparePin('2.3000.1', '2.3000.2').status).to.equal('mismatch');
    expect(comparePin('2.3000.1', null).status).to.equal('unknown');
    expect(comparePin(null, '2.3000.2').status).to.equal('unpinned');
  });

  it('engine.webVersionStrict needs a pin (CONFIG_INVALID otherwise), off by default', () => {
    expect(parse({}).webVersionStrict).to.equal(false);
    expect(parse({ webVersion: '2.3000.1', webVersionStrict: true }).webVersionStrict).to.equal(
      true,
    );
    expect(() => parse({ webVersionStrict: true })).to.throw(/webVersionStrict needs a pinned/);
    expect(() => parse({ webVersion: 'live', webVersionStrict: true })).to.throw(
      /webVersionStrict needs a pinned/,
    );
  });
});
