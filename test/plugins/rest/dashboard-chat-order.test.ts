/**
 * The dashboard's chat panel keeps a conversation in order (an answer in the same second as the
 * question comes after it), keeps the phone's own lines across a reload, and the event log says
 * what a message.status is (issue 29, item 9). Headless Chromium.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { ADMIN_TOKEN, CONTACT, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: dashboard chat panel order, reload and event rows (headless Chromium)', function () {
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

  async function openPanel(page: Page): Promise<void> {
    await page.locator('#sim-panel').waitFor({ state: 'visible' });
    await page.selectOption('#sim-client', 'bot');
    await page.fill('#sim-phone', CONTACT);
    await page.dispatchEvent('#sim-phone', 'change');
  }

  const lines = (page: Page) => page.locator('#sim-inbox li span').allTextContents();

  it('question before answer, the phone’s lines after a reload, status rows that say something', async () => {
    const client = await fx.link('bot');
    // the bot answers at once: the answer lands in the same second as the question
    client.on('message', (m) => {
      if (m.body.startsWith('question')) void m.reply(m.body.replace('question', 'answer'));
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    await openPanel(page);

    const inbox = page.locator('#sim-inbox li');
    for (let i = 1; i <= 3; i++) {
      await page.fill('#sim-text', `question ${i}`);
      await page.click('#sim-send');
      await inbox.filter({ hasText: `answer ${i}` }).waitFor();
    }
    const expected = ['question 1', 'answer 1', 'question 2', 'answer 2', 'question 3', 'answer 3'];
    expect(await lines(page)).to.deep.equal(expected);

    // the event log names the status and the message, not only "message.status bot"
    const statusRow = page.locator('#events li', { hasText: 'message.status' }).first();
    await statusRow.waitFor();
    expect(await statusRow.textContent()).to.match(
      /message\.status\s*bot\s*(queued|sending|sent|delivered|read) text → 15550001111@c\.us/,
    );

    await page.reload();
    await openPanel(page);
    await inbox.filter({ hasText: 'answer 3' }).waitFor();
    expect(await lines(page)).to.deep.equal(expected);
    expect(problems).to.deep.equal([]);
  });
});
