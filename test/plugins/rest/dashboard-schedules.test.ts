// The dashboard in real headless Chromium lists the recurring jobs of plugins with their next run.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { definePlugin } from '../../../src/index.js';
import { launchChromium } from '../../helpers/chromium.js';
import { ADMIN_TOKEN, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: the dashboard lists recurring jobs (headless Chromium)', function () {
  this.timeout(60_000);
  let fx: RestFixture;
  let browser: Browser;

  before(async () => {
    fx = await restFixture({ clients: ['bot'] });
    fx.sdk.use(
      definePlugin({
        name: 'reports',
        setup(ctx) {
          ctx.schedule('0 9 * * *', () => undefined, { name: 'daily', timezone: 'Asia/Tokyo' });
        },
      }),
    );
    await fx.sdk.start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('shows each job with its expression, time zone and next run', async () => {
    const page = await browser.newPage();
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    const item = page.locator('#schedules li[data-job="reports:daily"]');
    await item.waitFor({ timeout: 10_000 });
    const [job] = await fx.sdk.plugins.schedules();
    const nextRun = await page.evaluate((iso) => new Date(iso).toLocaleString(), job.nextRun!);
    expect(await item.textContent()).to.equal(
      `reports · daily 0 9 * * * (Asia/Tokyo) · next ${nextRun} · last —`,
    );
    expect(await page.locator('#schedules-card').isVisible()).to.equal(true);
  });
});
