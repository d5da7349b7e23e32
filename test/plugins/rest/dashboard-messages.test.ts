/**
 * The dashboard's simulator chat panel (headless Chromium): the simulated phone shares a location,
 * starts a poll and votes on the bot's poll; received locations, polls and cards read well.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import type { Message } from '../../../src/index.js';
import type { PollVote } from '../../../src/entries/types.js';
import {
  ADMIN_TOKEN,
  BOT_ID,
  CONTACT,
  CONTACT_ID,
  restFixture,
  type RestFixture,
} from '../../helpers/rest-harness.js';

describe('REST: dashboard chat panel with locations and polls (headless Chromium)', function () {
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

  it('shares a location, starts a poll, votes, and shows what the bot sent readably', async () => {
    const client = await fx.link('bot');
    const { id: pollId } = await client.sendPollMessage({
      to: CONTACT_ID,
      poll: { question: 'Lunch?', options: ['Pizza', 'Sushi'] },
    });
    await client.sendLocationMessage({
      to: CONTACT_ID,
      location: { latitude: 48.8584, longitude: 2.2945, name: 'Tour Eiffel' },
    });
    await client.sendContactMessage({ to: CONTACT_ID, contacts: [{ id: BOT_ID }] });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(`${fx.url}/`);
    await page.fill('#token-input', ADMIN_TOKEN);
    await page.click('#token-save');
    await page.locator('#sim-panel').waitFor({ state: 'visible' });
    await page.selectOption('#sim-client', 'bot');
    await page.fill('#sim-phone', CONTACT);
    await page.dispatchEvent('#sim-phone', 'change');

    const inbox = page.locator('#sim-inbox li');
    await inbox.filter({ hasText: '📍 Tour Eiffel (48.8584, 2.2945)' }).waitFor();
    await inbox.filter({ hasText: /👤 .+ \(\+15550000001\)/ }).waitFor();
    const poll = inbox.filter({ hasText: '📊 Lunch?: Pizza / Sushi (one answer)' });
    await poll.waitFor();

    const voted = new Promise<PollVote>((resolve) => client.once('poll.vote', resolve));
    await poll.locator('button', { hasText: 'Sushi' }).click();
    expect(await voted).to.deep.include({ pollMessageId: pollId, selectedOptions: ['Sushi'] });

    const got = (type: string) =>
      new Promise<Message>((resolve) =>
        client.on('message', (m) => {
          if (m.type === type) resolve(m);
        }),
      );
    await page.click('#sim-kinds summary');
    const location = got('location');
    await page.fill('#sim-lat', '51.5007');
    await page.fill('#sim-lng', '-0.1246');
    await page.fill('#sim-place', 'Big Ben');
    await page.click('#sim-send-location');
    expect((await location).location).to.deep.equal({
      latitude: 51.5007,
      longitude: -0.1246,
      name: 'Big Ben',
    });

    const created = got('poll_creation');
    await page.fill('#sim-question', 'Tea or coffee?');
    await page.fill('#sim-options', 'Tea\nCoffee\n');
    await page.check('#sim-multi');
    await page.click('#sim-send-poll');
    expect((await created).poll).to.deep.equal({
      question: 'Tea or coffee?',
      options: ['Tea', 'Coffee'],
      allowMultipleAnswers: true,
    });
    await inbox.filter({ hasText: '📊 Tea or coffee?: Tea / Coffee (several answers)' }).waitFor();
    expect(problems).to.deep.equal([]);
  });
});
