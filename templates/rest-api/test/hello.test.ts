// Runs the bot's own config and plugins on the simulator engine: no phone, no network.
// The REST API listens on a free loopback port with a test token.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSdk, loadConfigFile, type Sdk } from 'wakitjs';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BOT = '15550000001';
const ALICE = '15550001111';
const TOKEN = 'test-token-0123456789abcdef0123456789';
let sdk: Sdk;
let sessions: string;
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
  const { config, baseDir } = await loadConfigFile(path.join(projectDir, 'bot.config.json'), {
    ...process.env,
    WAKIT_REST_TOKEN: TOKEN,
  });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  sessions = await mkdtemp(path.join(os.tmpdir(), 'bot-test-'));
  const rest = config.plugins.rest as Record<string, unknown>;
  sdk = createSdk(
    {
      ...config,
      engine: { type: 'simulator', autoScanMs: 0, autoScanPhone: BOT },
      auth: { type: 'local', dataPath: sessions },
      queue: { ...config.queue, minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      log: { level: 'silent' },
      plugins: { ...config.plugins, rest: { ...rest, port, host: '127.0.0.1' } },
    },
    { baseDir },
  );
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
});

after(async () => {
  await sdk.stop();
  await rm(sessions, { recursive: true, force: true });
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
