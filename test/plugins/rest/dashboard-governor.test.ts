// The dashboard in real headless Chromium shows each client's send budgets and follows them.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { ADMIN_TOKEN, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: the dashboard shows the send governor (headless Chromium)', function () {
  this.timeout(60_000);
  let fx: RestFixture;
  let browser: Browser;

  before(async () => {
    fx = await restFixture({
      clients: ['bot'],
      config: {
        engine: { type: 'simulator', ackDelayMs: 5 },
        governor: { preset: 'standard', newContactsPerDay: 2, warmupDays: 0 },
      },
    });
    await fx.link('bot');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('shows budget use, then the deferred send once the new-contact budget is spent', async () => {
    const page = await browser.newPage();
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    const line = page.locator('.client[data-name="bot"] .governor');
    await line.waitFor({ timeout: 10_000 });
    expect(await line.textContent()).to.equal(
      'budget standard · hour 0/60 · day 0/500 · new contacts 0/2',
    );
    await page.locator('#connection[data-state="on"]').waitFor();

    for (let n = 0; n < 3; n++) {
      const phone = `1555400${n}`;
      fx.sdk.simulator.phone(phone);
      const sent = await fx.request('POST', '/api/v1/messages', {
        json: { chatId: phone, content: `hello ${n}` },
      });
      expect(sent.status).to.equal(202);
    }
    await line.filter({ hasText: '1 deferred' }).waitFor({ timeout: 15_000 });
    expect(await line.textContent()).to.equal(
      'budget standard · hour 2/60 · day 2/500 · new contacts 2/2 · 1 deferred',
    );
  });
});
