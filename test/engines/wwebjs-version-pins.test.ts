/**
 * Version policy (docs/engines.md): whatsapp-web.js and puppeteer are pinned exactly, because a
 * minor of either can change what the page code does; the compat layer was written against one
 * whatsapp-web.js. This fails when the installed library is another one: re-check every compat
 * fix (and its double test) before moving COMPAT_WWEBJS_VERSION.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMPAT_WWEBJS_VERSION } from '../../src/engines/wwebjs/compat/index.js';
import { installedVersions } from '../../src/engines/wwebjs/installed.js';

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
