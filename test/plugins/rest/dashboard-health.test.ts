// The dashboard in real headless Chromium shows each client's engine health and follows it.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { ADMIN_TOKEN, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: the dashboard shows engine health (headless Chromium)', function () {
  this.timeout(60_000);
  let fx: RestFixture;
  let browser: Browser;

  before(async () => {
    fx = await restFixture({
      clients: ['bot'],
      config: {
        engine: {
          type: 'simulator',
          ackDelayMs: 5,
          build: { version: '2.3000.3-sim', broken: ['send.media'] },
        },
      },
    });
    await fx.link('bot');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('shows the build and the broken capabilities, then "engine ok" after the upgrade', async () => {
    const page = await browser.newPage();
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    const health = page.locator('.client[data-name="bot"] .health');
    await health.locator('xpath=self::*[@data-status="degraded"]').waitFor({ timeout: 10_000 });
    expect(await health.textContent()).to.equal('WhatsApp Web 2.3000.3-sim · broken: send.media');
    await page.locator('#connection[data-state="on"]').waitFor();

    fx.sdk.simulator.build.set({ version: '2.3000.4-sim', broken: [] });
    expect((await fx.request('POST', '/api/v1/client/health')).status).to.equal(200);
    await health.locator('xpath=self::*[@data-status="ok"]').waitFor({ timeout: 10_000 });
    expect(await health.textContent()).to.equal('WhatsApp Web 2.3000.4-sim · engine ok');
  });
});
