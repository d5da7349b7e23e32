// The dashboard in real headless Chromium shows chat modes (a column per chat, its mode a switch),
// follows `chat.mode` events, and switches a chat through the API.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { ADMIN_TOKEN, CONTACT, restFixture, type RestFixture } from '../../helpers/rest-harness.js';

describe('REST: the dashboard shows and switches chat modes (headless Chromium)', function () {
  this.timeout(60_000);
  let fx: RestFixture;
  let browser: Browser;

  before(async () => {
    fx = await restFixture({ clients: ['bot'], start: true });
    await fx.link('bot');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('lists a chat set to human by the SDK, and its switch sets it to closed', async () => {
    const page = await browser.newPage();
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    await page.locator('#connection[data-state="on"]').waitFor({ timeout: 10_000 });
    const lid = fx.sdk.simulator.phone(CONTACT).lid;

    // set elsewhere (the SDK): the chat.mode event brings the row
    await fx.sdk.chats.setMode('bot', CONTACT, 'human', { reason: 'asks for a refund' });
    const row = page.locator(`#mode-rows tr[data-chat="${lid}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute('data-mode')).to.equal('human');
    expect(await row.locator('.mode-reason').textContent()).to.equal('asks for a refund');
    expect(await row.locator('.mode-switch').inputValue()).to.equal('human');

    // the switch
    await row.locator('.mode-switch').selectOption('closed');
    await page.locator(`#mode-rows tr[data-chat="${lid}"][data-mode="closed"]`).waitFor();
    expect((await fx.sdk.chats.mode('bot', CONTACT)).mode).to.equal('closed');

    // the form sets a chat by number
    await page.fill('#mode-chat', CONTACT);
    await page.selectOption('#mode-mode', 'bot');
    await page.click('#mode-set');
    await page.locator(`#mode-rows tr[data-chat="${lid}"][data-mode="bot"]`).waitFor();
    expect((await fx.sdk.chats.mode('bot', CONTACT)).mode).to.equal('bot');
    expect(await page.locator('#mode-result').textContent()).to.equal(`${lid}: bot`);
  });
});
