/**
 * The double's builds: each reports its version, what is not modelled fails loudly, and the
 * baseline build sends media. What each later build breaks on the unmodified whatsapp-web.js
 * 1.34.7 (and what wakit's compat fix makes of it) is in compat-fixes.test.ts.
 */
import { expect } from 'chai';
import { startAndLink } from '../engines/engine-contract.js';
import type { EngineHarness } from '../engines/engine-contract.js';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import { BASELINE_BUILD, KEY_RENAME_BUILD, type DoubleBuild } from './builds.js';
import { DoubleHarness } from './harness.js';
import { ALICE } from './world.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('WhatsApp Web double builds on whatsapp-web.js 1.34.7', function () {
  this.timeout(60_000);
  let h: DoubleHarness;
  let engine: WwebjsEngine;

  const linkedOn = async (build: DoubleBuild): Promise<void> => {
    h = await DoubleHarness.create({ build });
    engine = h.engine();
    await startAndLink({
      engine,
      link: (qr: string) => h.link(qr),
      deadlineMs: 15_000,
    } as unknown as EngineHarness);
  };
  afterEach(async () => {
    await h.cleanup();
  });

  it('every build reports its version as window.Debug.VERSION', async () => {
    await linkedOn(KEY_RENAME_BUILD);
    const page = await h.page();
    expect(await page.evaluate('window.Debug.VERSION')).to.equal(KEY_RENAME_BUILD.version);
    expect(BASELINE_BUILD.version).to.not.equal(KEY_RENAME_BUILD.version);
    // what is not modelled fails loudly, naming the module and the member
    const failure = (expression: string) =>
      page.evaluate(
        `(() => { try { ${expression}; return 'no error'; } catch (e) { return e.message; } })()`,
      );
    expect(await failure("window.require('WAWebNotThere')")).to.equal(
      'WA double: module WAWebNotThere is not modelled',
    );
    expect(await failure("window.require('WAWebCmd').notThere")).to.equal(
      'WA double: WAWebCmd.notThere is not modelled',
    );
  });

  it('the baseline build sends the same media', async () => {
    await linkedOn(BASELINE_BUILD);
    const result = await engine.send(ALICE.pn, {
      kind: 'image',
      media: { data: PNG, mimetype: 'image/png', filename: 'dot.png' },
    });
    expect(await h.phone('sentMedia', result.id)).to.equal(PNG.toString('base64'));
  });
});
