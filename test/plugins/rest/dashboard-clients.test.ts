// The dashboard in real headless Chromium follows clients added and removed at run time.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { ADMIN_TOKEN, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: the dashboard and clients at run time (headless Chromium)', function () {
  this.timeout(60_000);
  let fx: RestFixture;
  let browser: Browser;

  before(async () => {
    fx = await restFixture({ start: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('shows a client created over REST, and drops its card when it is deleted', async () => {
    const page = await browser.newPage();
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    await page.locator('.client[data-name="bot"] .status').waitFor();
    await page.locator('#connection[data-state="on"]').waitFor();

    const created = await fx.request('POST', '/api/v1/clients', { json: { name: 'sales' } });
    expect(created.status).to.equal(201);
    const card = page.locator('.client[data-name="sales"]');
    await card.locator('.status[data-status="SCAN_QR"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('#send-client option[value="sales"]').count()).to.equal(1);

    const deleted = await fx.request('DELETE', '/api/v1/clients/sales');
    expect(deleted.status).to.equal(200);
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await page.locator('#send-client option[value="sales"]').count()).to.equal(0);
    expect(await page.locator('.client[data-name="bot"]').count()).to.equal(1);
  });
});
