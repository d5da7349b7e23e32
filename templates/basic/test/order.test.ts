// The order dialog (plugins/order.ts) on the simulator, with the dialog test kit: a chat helper
// that sends, expects replies and votes, and a virtual clock for the timeouts: no sleeps.
import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestSdk, type Sdk } from 'wakitjs';
import { testChat, VirtualClock } from 'wakitjs/testing';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOT = '15550000001';
let sdk: Sdk | undefined;

async function start(order: Record<string, unknown> = {}) {
  const clock = new VirtualClock();
  sdk = await createTestSdk(path.join(projectDir, 'bot.config.json'), {
    phone: BOT,
    clock,
    plugins: { './plugins/order.ts': order },
  });
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
  return { sdk, clock };
}

afterEach(async () => {
  await sdk?.stop();
});

test('!order: size by number, address, yes → placed; !orders lists it', async () => {
  const { sdk, clock } = await start({ menu: 'text' });
  const alice = testChat(sdk, '15550001111', { clock });
  await alice.send('!order');
  await alice.expectReply('Which size?\n1. small\n2. medium\n3. large');
  await alice.send('2');
  await alice.expectReply('Delivery address?');
  await alice.send('1 Main Street');
  await alice.expectReply('Confirm: a medium order to 1 Main Street? (yes/no)');
  await alice.send('yes');
  await alice.expectReply('Order placed: #1.');
  await alice.send('!orders');
  await alice.expectReply('#1: medium to 1 Main Street');
});

test('the size as a poll: a vote answers it', async () => {
  const { sdk, clock } = await start({ menu: 'poll' });
  const bob = testChat(sdk, '15550002222', { clock });
  await bob.send('!order');
  await bob.expectReply('Which size?');
  await bob.vote('large');
  await bob.expectReply('Delivery address?');
});

test('no answer: one reminder, then "Order expired."', async () => {
  const { sdk, clock } = await start({ timeoutSeconds: 60 });
  const carol = testChat(sdk, '15550003333', { clock });
  await carol.send('!order');
  await carol.expectReply(/^Which size\?/);
  await carol.advance(60_000);
  await carol.expectReply('Are you still there? Answer the last question, or send "cancel".');
  await carol.advance(60_000);
  await carol.expectReply('Order expired.');
  assert.deepEqual(await sdk.conversations.list(), []);
});

test('handoff: a person answers from the phone; the bot is silent until 30 minutes of quiet', async () => {
  const { sdk, clock } = await start({ timeoutSeconds: 300 });
  const dan = testChat(sdk, '15550004444', { clock });
  const erin = testChat(sdk, '15550005555', { clock });
  await dan.send('!order');
  await dan.expectReply(/^Which size\?/);
  // someone of the shop answers from the phone (or WhatsApp Web) in Dan's chat
  await dan.fromPhone('Hi Dan, Sam here: which size do you need?');
  assert.equal((await sdk.chats.mode('bot', dan.id)).mode, 'human');
  await dan.send('2');
  await dan.send('!orders');
  await dan.expectNoReply();
  // Erin's chat is not affected
  await erin.send('!order');
  await erin.expectReply(/^Which size\?/);
  // no reminder while a person answers; after 30 minutes of quiet the bot is back
  await dan.advance(29 * 60_000);
  await dan.expectNoReply();
  await dan.advance(60_000);
  await dan.expectReply('I am back: send !order to order something.');
  // the paused order goes on at its question
  await dan.send('2');
  await dan.expectReply('Delivery address?');
});
