/**
 * The dashboard's simulator chat panel with message actions, in headless Chromium: the phone reacts
 * to the bot's message, and the bot's reactions, edits and deletions show in the chat.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import type { Message } from '../../../src/index.js';
import type { ReactionUpdate } from '../../../src/entries/types.js';
import {
  ADMIN_TOKEN,
  CONTACT,
  CONTACT_ID,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

describe('REST: dashboard chat panel with reactions, edits and deletions', function () {
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

  it('reacts as the phone and shows what the bot did to messages', async () => {
    const client = await fx.link('bot');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    await page.locator('#sim-panel').waitFor({ state: 'visible' });
    await page.locator('#connection[data-state="on"]').waitFor();
    await page.selectOption('#sim-client', 'bot');

    // The phone reacts to the bot's message from the panel.
    const sent = await client.sendTextMessage({ to: CONTACT_ID, text: 'rate this' });
    const botMessage = page.locator('#sim-inbox li.in', { hasText: 'rate this' });
    await botMessage.waitFor({ timeout: 10_000 });
    const reaction = new Promise<ReactionUpdate>((resolve) =>
      client.on('message.reaction', (u) => {
        if (!u.fromMe) resolve(u);
      }),
    );
    await botMessage.locator('.sim-react button', { hasText: '❤️' }).click();
    expect(await reaction).to.include({ messageId: sent.id, emoji: '❤️' });
    await botMessage.locator('.reactions', { hasText: '❤️' }).waitFor();

    // The phone writes; the bot reacts to it: the chip shows on the phone's message.
    const received = new Promise<Message>((resolve) =>
      client.on('message', (m) => {
        if (m.body === 'from the panel') resolve(m);
      }),
    );
    await page.fill('#sim-text', 'from the panel');
    await page.click('#sim-send');
    await (await received).react('🎉');
    await page
      .locator('#sim-inbox li.out', { hasText: 'from the panel' })
      .locator('.reactions', { hasText: '🎉' })
      .waitFor({ timeout: 10_000 });

    // The bot edits, then deletes its message.
    await client.messages.edit(sent.id, 'rate this, please');
    await page
      .locator('#sim-inbox li.in', { hasText: 'rate this, please' })
      .locator('small.edited')
      .waitFor({ timeout: 10_000 });
    await client.messages.delete(sent.id, { forEveryone: true });
    await page
      .locator('#sim-inbox li.revoked', { hasText: 'This message was deleted' })
      .waitFor({ timeout: 10_000 });
    expect(problems).to.deep.equal([]);
    expect(fx.sdk.simulator.phone(CONTACT).actions.map((a) => a.type)).to.include.members([
      'reaction',
      'edit',
      'revoke',
    ]);
  });
});
