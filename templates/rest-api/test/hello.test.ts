// Runs the bot's own config and plugins on the simulator engine: no phone, no network.
// The REST API listens on a free loopback port with a test token.
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTestSdk, type Sdk } from 'wakitjs';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOT = '15550000001';
const ALICE = '15550001111';
const TOKEN = 'test-token-0123456789abcdef0123456789';
let sdk: Sdk;
let baseUrl: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

before(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // bot.config.json made safe for tests: simulator engine, temporary sessions, no pacing, no
  // webhooks or other calls out; ${VARS} also come from .env
  sdk = await createTestSdk(path.join(projectDir, 'bot.config.json'), {
    phone: BOT,
    env: { WAKIT_REST_TOKEN: TOKEN },
    plugins: { rest: { port, host: '127.0.0.1' } },
  });
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

test('ping gets pong', async () => {
  const alice = sdk.simulator.phone(ALICE);
  await alice.send(`${BOT}@c.us`, 'ping');
  await alice.waitForMessage((m) => m.body === 'pong');
});

test('the REST API needs the token and reports the client READY', async () => {
  const anonymous = await fetch(`${baseUrl}/api/v1/client/info`);
  assert.equal(anonymous.status, 401);
  const info = await fetch(`${baseUrl}/api/v1/client/info`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(info.status, 200);
  const body = (await info.json()) as { name: string; status: string };
  assert.equal(body.name, 'bot');
  assert.equal(body.status, 'READY');
});

test('the REST API sends a message through the queue', async () => {
  const response = await fetch(`${baseUrl}/api/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ chatId: `${ALICE}@c.us`, content: 'Hello from the API' }),
  });
  assert.equal(response.status, 202);
  await sdk.simulator.phone(ALICE).waitForMessage((m) => m.body === 'Hello from the API');
});
