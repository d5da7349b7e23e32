import { mkdir } from 'node:fs/promises';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import {
  ADMIN_TOKEN,
  BOT_ID,
  BOT_PHONE,
  CONTACT,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

describe('REST: dashboard in headless Chromium', function () {
  this.timeout(60_000);
  let fx: RestFixture;
  let browser: Browser;

  before(async () => {
    fx = await restFixture();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('signs in, shows the QR, turns READY after linking, sends from the form and plays a contact', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    const bot = page.locator('.client[data-name="bot"]');
    await bot.waitFor();
    expect(await bot.locator('.status').textContent()).to.equal('STOPPED');
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }
        ).sessionStorage.getItem('wakit.token'),
      ),
    ).to.equal(ADMIN_TOKEN);

    const qrShown = new Promise<string>((resolve) => fx.sdk.client('bot').once('qr', resolve));
    await bot.locator('button.initialize').click();
    await qrShown;
    const img = bot.locator('img.qr');
    await img.waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const el = (
        globalThis as unknown as {
          document: { querySelector(s: string): { getAttribute(n: string): string | null } | null };
        }
      ).document.querySelector('.client[data-name="bot"] img.qr');
      return el?.getAttribute('src')?.startsWith('data:image/png;base64,') ?? false;
    });
    await page.locator('#connection[data-state="on"]').waitFor();

    const qr = await fx.request('GET', '/api/v1/clients/bot/qr?format=text');
    fx.sdk.simulator.scan(qr.text, { phone: BOT_PHONE, pushname: 'Dashboard Bot' });
    await page
      .locator('.client[data-name="bot"] .status[data-status="READY"]')
      .waitFor({ timeout: 10_000 });
    await img.waitFor({ state: 'hidden' });
    await page.locator('.client[data-name="bot"] .me', { hasText: BOT_ID }).waitFor();

    await page.selectOption('#send-client', 'bot');
    await page.fill('#send-chat', CONTACT);
    await page.fill('#send-text', 'Hello from the dashboard');
    await page.click('#send-button');
    const received = await fx.sdk.simulator
      .phone(CONTACT)
      .waitForMessage((m) => m.body === 'Hello from the dashboard', 10_000);
    expect(received.author).to.equal(BOT_ID);
    await page.locator('#send-result', { hasText: /Queued|Message/ }).waitFor();

    // The simulator chat panel: play the contact writing to the bot.
    await page.locator('#sim-panel').waitFor({ state: 'visible' });
    const botGot = new Promise<string>((resolve) =>
      fx.sdk.client('bot').on('message', (message) => {
        if (message.body === 'Hi bot, from the panel') resolve(message.from);
      }),
    );
    await page.selectOption('#sim-client', 'bot');
    await page.fill('#sim-text', 'Hi bot, from the panel');
    await page.click('#sim-send');
    expect(await botGot).to.equal(`${CONTACT}@c.us`);
    await page
      .locator('#sim-inbox li', { hasText: 'Hello from the dashboard' })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.locator('#events li', { hasText: 'message' }).first().waitFor();

    await mkdir('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/dashboard.png', fullPage: true });
    expect(problems).to.deep.equal([]);
  });

  it('asks again for a token the server refuses', async () => {
    const page = await browser.newPage();
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', 'not-the-right-token-at-all');
    await page.click('#token-save');
    await page.locator('#login-error', { hasText: 'refused' }).waitFor();
    expect(await page.locator('#app').isHidden()).to.equal(true);
  });
});
