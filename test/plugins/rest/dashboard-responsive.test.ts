// The dashboard at a phone's width (390 px) and a desktop's (1440 px) in real headless Chromium:
// no horizontal overflow, the status badge on screen, the simulator's scan button, the chat panel
// sending text and an image, the bot's line breaks kept. Screenshots go to test-artifacts/.
import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { ADMIN_TOKEN, CONTACT, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type Box = { right: number; width: number };
type El = {
  parentElement: El | null;
  tagName: string;
  id: string;
  className: string;
  getBoundingClientRect(): Box;
  checkVisibility?(): boolean;
};
type Win = {
  innerWidth: number;
  getComputedStyle(e: El): { overflowX: string };
  document: {
    documentElement: { scrollWidth: number };
    querySelectorAll(s: string): ArrayLike<El>;
  };
};

/**
 * Page width beyond the viewport, and the visible elements that stick out of it on the right
 * (unless an ancestor inside the viewport clips them, as the one-line event log does).
 */
async function overflow(page: Page): Promise<{ extra: number; outside: string[] }> {
  return page.evaluate(() => {
    const w = globalThis as unknown as Win;
    const outside = Array.from(w.document.querySelectorAll('body *'))
      .filter((e) => (e.checkVisibility?.() ?? true) && e.getBoundingClientRect().width > 0)
      .filter((e) => e.getBoundingClientRect().right > w.innerWidth + 0.5)
      .filter((e) => {
        for (let p = e.parentElement; p; p = p.parentElement) {
          const clips = w.getComputedStyle(p).overflowX !== 'visible';
          if (clips && p.getBoundingClientRect().right <= w.innerWidth + 0.5) return false;
        }
        return true;
      })
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className ? `.${e.className}` : ''}`,
      );
    return { extra: w.document.documentElement.scrollWidth - w.innerWidth, outside };
  });
}

async function signIn(browser: Browser, fx: RestFixture, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: width < 500 ? 844 : 900 } });
  await page.goto(`${fx.url}/`);
  await page.fill('#token-input', ADMIN_TOKEN);
  await page.click('#token-save');
  await page.locator('.client[data-name="bot"] .status').waitFor();
  await page.locator('#sim-panel').waitFor({ state: 'visible' });
  await page.locator('#connection[data-state="on"]').waitFor();
  return page;
}

describe('REST: the dashboard on a phone and on a desktop (headless Chromium)', function () {
  this.timeout(60_000);
  let fx: RestFixture;
  let browser: Browser;

  before(async () => {
    fx = await restFixture();
    browser = await launchChromium();
    await mkdir('test-artifacts', { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('390 px: no horizontal overflow; scan button links the client; text, image and multi-line chat', async () => {
    const page = await signIn(browser, fx, 390);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const bot = page.locator('.client[data-name="bot"]');

    await bot.locator('button.initialize').click();
    await bot.locator('.status[data-status="SCAN_QR"]').waitFor();
    await bot.locator('img.qr').waitFor({ state: 'visible' });
    expect(await overflow(page)).to.deep.equal({ extra: 0, outside: [] });
    await page.screenshot({ path: 'test-artifacts/dashboard-390-qr.png', fullPage: true });

    await bot.locator('button.scan').click();
    await bot.locator('.status[data-status="READY"]').waitFor({ timeout: 10_000 });
    expect(await bot.locator('button.scan').isHidden()).to.equal(true);

    const client = fx.sdk.client('bot');
    client.on('message', (message) => {
      if (message.body === 'lines please') void message.reply('first line\nsecond line');
    });
    const gotImage = new Promise<{ type: string; body: string }>((resolve) =>
      client.on('message', (message) => {
        if (message.hasMedia) resolve({ type: message.type, body: message.body });
      }),
    );

    await page.selectOption('#sim-client', 'bot');
    await page.fill('#sim-text', 'lines please');
    await page.press('#sim-text', 'Enter');
    const reply = page.locator('#sim-inbox li span', { hasText: 'first line' }).first();
    await reply.waitFor({ timeout: 10_000 });
    expect(await reply.innerText()).to.equal('first line\nsecond line');

    await page.setInputFiles('#sim-image', {
      name: 'cat.png',
      mimeType: 'image/png',
      buffer: TINY_PNG,
    });
    await page.fill('#sim-text', 'a cat');
    await page.click('#sim-send');
    expect(await gotImage).to.deep.equal({ type: 'image', body: 'a cat' });
    await page.locator('#sim-inbox li img').first().waitFor();

    // long unbroken text from the bot wraps instead of widening the page
    await client.sendTextMessage({ to: `${CONTACT}@c.us`, text: `x${'y'.repeat(300)}` });
    await page
      .locator('#sim-inbox li span', { hasText: 'xyyy' })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.locator('#events li').first().waitFor();
    expect(await overflow(page)).to.deep.equal({ extra: 0, outside: [] });
    await page.screenshot({ path: 'test-artifacts/dashboard-390.png', fullPage: true });
    expect(problems).to.deep.equal([]);
    await page.close();
  });

  it('1440 px: two columns, no horizontal overflow', async () => {
    const page = await signIn(browser, fx, 1440);
    const columns = await page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: {
            querySelectorAll(
              s: string,
            ): ArrayLike<{ getBoundingClientRect(): { left: number; top: number } }>;
          };
        }
      ).document;
      return Array.from(d.querySelectorAll('main > .column')).map((c) => c.getBoundingClientRect());
    });
    expect(columns).to.have.length(2);
    expect(columns[1]?.left).to.be.greaterThan((columns[0]?.left ?? 0) + 300);
    expect(columns[1]?.top).to.equal(columns[0]?.top);
    expect(await overflow(page)).to.deep.equal({ extra: 0, outside: [] });
    await page.screenshot({ path: 'test-artifacts/dashboard-1440.png', fullPage: true });
    await page.close();
  });
});
