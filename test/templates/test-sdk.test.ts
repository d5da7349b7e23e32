// createTestSdk: a bot's own config file run in tests never reaches the outside (issue 29, item 1).
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sdk } from '../../src/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';

// the plugins a config names are imported by file URL as ES modules; the API is imported the same
// way, so that the REST plugin and this test share one module instance (one send contract)
const { createSdk, createTestSdk } = await import('../../src/index.js');
const { testConfig } = await import('../../src/entries/testing.js');
const { loadConfigFile } = await import('../../src/entries/config.js');

const BOT = '15550000001';
const ALICE = '15550001111';
const TOKEN = 'test-token-0123456789abcdef0123456789';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A webhook receiver on loopback that counts what it receives. */
async function receiver(): Promise<{ server: Server; url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received };
}

/** A production-looking bot: WhatsApp Web, sessions in a bucket, a fleet on Redis, a webhook. */
function productionConfig(webhookUrl: string): unknown {
  return {
    engine: { type: 'whatsapp-web.js' },
    auth: {
      type: 'remote',
      storage: { projectId: 'prod', bucket: 'prod-sessions', apiEndpoint: 'http://127.0.0.1:9' },
    },
    cluster: { type: 'redis', url: 'redis://127.0.0.1:9/0' },
    clients: ['bot'],
    queue: { minGapMs: 5_000 },
    plugins: {
      rest: {
        tokens: [{ token: '${WAKIT_REST_TOKEN}', clients: ['*'] }],
        webhooks: [{ url: webhookUrl, secret: '${WAKIT_WEBHOOK_SECRET}', backoffMs: 0 }],
      },
      'auto-reply': { rules: [{ match: 'ping', type: 'exact', reply: 'pong' }] },
    },
  };
}

/** Talks to the bot through the simulator and the REST API: what makes webhook events. */
async function exercise(sdk: Sdk, port: number): Promise<void> {
  await sdk.start();
  await sdk.client('bot').waitUntilReady({ timeoutMs: 5_000 });
  const alice = sdk.simulator.phone(ALICE);
  await alice.send(`${BOT}@c.us`, 'ping');
  await alice.waitForMessage((m) => m.body === 'pong');
  const sent = await fetch(`http://127.0.0.1:${port}/api/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ chatId: `${ALICE}@c.us`, content: 'from the API' }),
  });
  expect(sent.status, await sent.clone().text()).to.equal(202);
  await alice.waitForMessage((m) => m.body === 'from the API');
}

describe('createTestSdk (a bot config made safe for tests)', function () {
  this.timeout(30_000);
  let hook: Awaited<ReturnType<typeof receiver>>;
  let dir: string;
  let cleanup: () => Promise<void>;
  let file: string;

  beforeEach(async () => {
    hook = await receiver();
    ({ dir, cleanup } = await tempDir('wakit-test-sdk-'));
    file = path.join(dir, 'bot.config.json');
    await writeFile(file, JSON.stringify(productionConfig(hook.url)));
    await writeFile(
      path.join(dir, '.env'),
      `WAKIT_REST_TOKEN=${TOKEN}\nWAKIT_WEBHOOK_SECRET=whsec-secret-0123456789abcdef\n`,
    );
  });
  afterEach(async () => {
    hook.server.close();
    await cleanup();
  });

  it('runs the config file on the simulator with .env variables and delivers ZERO webhooks', async () => {
    const port = await freePort();
    const sdk = await createTestSdk(file, { plugins: { rest: { port } } });
    try {
      expect(sdk.testing).to.equal(true);
      expect(sdk.config.engine.type).to.equal('simulator');
      expect(sdk.config.auth.type).to.equal('local');
      expect(sdk.config.cluster).to.equal(undefined);
      expect(sdk.config.queue).to.include({ minGapMs: 0, persistence: 'memory' });
      await exercise(sdk, port);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hook.received).to.deep.equal([]);
    } finally {
      await sdk.stop();
    }
    // the temporary sessions are gone with the stop
    expect(existsSync((sdk.config.auth as { dataPath: string }).dataPath)).to.equal(false);
  });

  it('the same config without testing does deliver (the receiver above would have seen them)', async () => {
    const port = await freePort();
    const { config, baseDir } = await loadConfigFile(file, {
      WAKIT_REST_TOKEN: TOKEN,
      WAKIT_WEBHOOK_SECRET: 'whsec-secret-0123456789abcdef',
    });
    const sessions = path.join(dir, 'sessions');
    const sdk = createSdk(testConfig(config, { dataPath: sessions, plugins: { rest: { port } } }), {
      baseDir,
    });
    try {
      await exercise(sdk, port);
      const deadline = Date.now() + 5_000;
      while (hook.received.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(hook.received.length).to.be.greaterThan(0);
    } finally {
      await sdk.stop();
    }
  });

  it('plugin overrides apply to enabled plugins only: never turn one on', async () => {
    const { config } = await loadConfigFile(file, {
      WAKIT_REST_TOKEN: TOKEN,
      WAKIT_WEBHOOK_SECRET: 'whsec-secret-0123456789abcdef',
    });
    const changed = testConfig(
      { ...config, plugins: { ...config.plugins, forwarder: false } },
      {
        dataPath: dir,
        plugins: { rest: { port: 1 }, forwarder: { routes: [] }, 'media-saver': {} },
      },
    );
    expect(changed.plugins?.rest).to.deep.include({ port: 1 });
    expect(changed.plugins?.forwarder).to.equal(false);
    expect(changed.plugins).to.not.have.property('media-saver');
  });

  it('a missing variable names .env; nothing is left behind', async () => {
    await writeFile(path.join(dir, '.env'), `WAKIT_REST_TOKEN=${TOKEN}\n`);
    const saved = process.env.WAKIT_WEBHOOK_SECRET;
    delete process.env.WAKIT_WEBHOOK_SECRET;
    try {
      const error = await createTestSdk(file).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).to.include('WAKIT_WEBHOOK_SECRET');
      expect(JSON.stringify(error)).to.include('.env');
    } finally {
      if (saved !== undefined) process.env.WAKIT_WEBHOOK_SECRET = saved;
    }
  });
});
