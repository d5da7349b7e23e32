// Runs the bot's own config and plugins on the simulator engine: no phone, no network.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestSdk, type Sdk } from 'wakitjs';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOT = '15550000001';
const ALICE = '15550001111';
let sdk: Sdk;

before(async () => {
  // bot.config.json made safe for tests: simulator engine, temporary sessions, no pacing, no
  // webhooks or other calls out; ${VARS} also come from .env
  sdk = await createTestSdk(path.join(projectDir, 'bot.config.json'), { phone: BOT });
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
});

after(async () => {
  await sdk?.stop(); // (undefined if before() failed) also removes the temporary sessions
});

test('!hello answers with the configured greeting', async () => {
  const alice = sdk.simulator.phone(ALICE, { pushname: 'Alice' });
  await alice.send(`${BOT}@c.us`, '!hello Ada');
  const answer = await alice.waitForMessage((m) => m.body.startsWith('Hello'));
  assert.equal(answer.body, 'Hello, Ada!');
});

test('!HI (an alias, any case) uses the sender name', async () => {
  const alice = sdk.simulator.phone(ALICE);
  await alice.send(`${BOT}@c.us`, '!HI');
  const answer = await alice.waitForMessage((m) => m.body === 'Hello, Alice!');
  assert.ok(answer.quotedMessageId);
});

test('ping gets pong', async () => {
  const alice = sdk.simulator.phone(ALICE);
  await alice.send(`${BOT}@c.us`, 'ping');
  const answer = await alice.waitForMessage((m) => m.body === 'pong');
  assert.equal(answer.chatId, `${BOT}@c.us`);
});
