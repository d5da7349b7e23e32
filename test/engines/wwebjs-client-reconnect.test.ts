/**
 * Reconnecting a whatsapp-web.js client is the client's job (ConnectionSupervisor), not the
 * engine's: these tests drive a BotClient made by `createSdk` on the real wwebjs engine over the
 * fake whatsapp-web.js Client (injected through `SdkOptions.engineFactory`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Sdk } from '../../src/index.js';
import type { BotClient } from '../../src/client/bot-client.js';
import type { ClientState, DisconnectReason } from '../../src/client/types.js';
import { engineSchema } from '../../src/config/schema.js';
import {
  createWwebjsEngineFactory,
  type WwebjsEngineConfig,
  type WwebjsEngineDeps,
} from '../../src/engines/wwebjs/index.js';
import { expectCode, sleep } from './engine-contract.js';
import {
  BOT,
  CONTACT,
  populatedNetwork,
  type FakeClient,
  type FakeWhatsAppNetwork,
} from '../helpers/fake-wwebjs-client.js';

const ENGINE = { type: 'whatsapp-web.js' } as const;
const RECONNECT = { initialDelayMs: 10, maxDelayMs: 40, maxAttempts: 2 } as const;

async function waitUntil(probe: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const methods = (client: FakeClient): string[] => client.calls.map((c) => c.method);

describe('whatsapp-web.js client reconnects through its supervisor (fake Client)', function () {
  this.timeout(15_000);
  let dir: string;
  let network: FakeWhatsAppNetwork;
  let sdk: Sdk;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-reconnect-'));
    network = populatedNetwork({ ackDelayMs: 5 });
  });

  afterEach(async () => {
    await sdk?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  function makeSdk(
    engine: Record<string, unknown> = {},
    deps: WwebjsEngineDeps = {},
    reconnect: Record<string, unknown> = {},
  ): Sdk {
    const engineConfig = { ...ENGINE, ...engine };
    sdk = createSdk(
      {
        engine: engineConfig,
        reconnect: { ...RECONNECT, ...reconnect },
        auth: { type: 'local', dataPath: dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
        log: { level: 'silent' },
      },
      {
        logger: pino({ level: 'silent' }),
        engineFactory: createWwebjsEngineFactory(
          engineSchema.parse(engineConfig) as WwebjsEngineConfig,
          {
            bindings: network.bindings(),
            browserEnvironment: { env: {}, isRoot: false, isExecutable: () => true },
            isProcessAlive: () => false,
            ...deps,
          },
        ),
      },
    );
    return sdk;
  }

  function observe(client: BotClient) {
    const seen = {
      states: [] as ClientState[],
      qrs: 0,
      restored: [] as boolean[],
      disconnects: [] as DisconnectReason[],
    };
    client.on('state', ({ to }) => seen.states.push(to));
    client.on('qr', () => (seen.qrs += 1));
    client.on('authenticated', ({ restored }) => seen.restored.push(restored));
    client.on('disconnected', (reason) => seen.disconnects.push(reason));
    return seen;
  }

  /** A client linked by QR and READY. */
  async function linkedClient(): Promise<BotClient> {
    const client = makeSdk().createClient({ name: 'bot' });
    client.once('qr', (qr) => void network.link(qr, BOT));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    return client;
  }

  const drops: Array<[string, (c: FakeClient) => unknown, DisconnectReason]> = [
    ['Chromium crashes', (c) => c.pupBrowser?.crash(), 'browser_crashed'],
    ['the page crashes', (c) => c.pupPage?.crash(), 'browser_crashed'],
    ['WhatsApp Web times out (TIMEOUT)', (c) => c.changeState('TIMEOUT'), 'connection_lost'],
    ['another WhatsApp Web takes over (CONFLICT)', (c) => c.changeState('CONFLICT'), 'conflict'],
  ];
  for (const [what, drop, reason] of drops) {
    it(`${what} while READY → disconnected(${reason}) → DISCONNECTED → STARTING → AUTHENTICATED (restored, no QR) → READY`, async () => {
      const client = await linkedClient();
      const first = network.last;
      const seen = observe(client);
      void drop(first);
      await waitUntil(() => seen.states.at(-1) === 'READY', 'READY again');
      expect(seen.disconnects).to.deep.equal([reason]);
      expect(seen.states).to.deep.equal(['DISCONNECTED', 'STARTING', 'AUTHENTICATED', 'READY']);
      expect(seen.restored).to.deep.equal([true]);
      expect(seen.qrs).to.equal(0);
      expect(network.created).to.have.length(2);
      expect(first.pupBrowser?.isConnected()).to.equal(false);
      expect(methods(first)).to.include('destroy').and.not.include('logout');
      expect(client.info().lastDisconnect?.reason).to.equal(reason);
      await client.sendTextMessage({ to: CONTACT, text: 'back online' });
      expect(methods(network.last)).to.include('sendMessage');
    });
  }

  it('Chromium failing to launch on every start → FAILED after reconnect.maxAttempts reconnects, no browser left', async () => {
    network.launchError = 'Failed to launch the browser';
    const client = makeSdk().createClient({ name: 'bot' });
    const seen = observe(client);
    await client.initialize();
    const error = await expectCode(client.waitUntilReady({ timeoutMs: 10_000 }), 'ENGINE_ERROR');
    expect(error.message).to.include('Gave up after 2 reconnect attempts');
    expect(client.state).to.equal('FAILED');
    expect(client.info().reconnect).to.equal(null);
    expect(network.created).to.have.length(3);
    expect(seen.disconnects).to.have.length(3);
    expect(seen.states).to.deep.equal([
      'STARTING',
      'DISCONNECTED',
      'STARTING',
      'DISCONNECTED',
      'STARTING',
      'DISCONNECTED',
      'FAILED',
    ]);
    await sleep(100);
    expect(network.created).to.have.length(3);
    await waitUntil(
      () => network.created.every((c) => !(c.pupBrowser?.isConnected() ?? false)),
      'every browser closed',
    );
  });

  // the reconnect ladder (failure-ladder.ts): causes a retry cures are retried until cured
  const outages: Array<[string, () => void, () => void, Record<string, unknown>, string]> = [
    [
      'DNS failing (net::ERR_NAME_NOT_RESOLVED)',
      () => (network.offline = true),
      () => (network.offline = false),
      {},
      'network',
    ],
    [
      'WhatsApp Web never loading (the authTimeoutMs watchdog)',
      () => (network.hangOnLoad = true),
      () => (network.hangOnLoad = false),
      { authTimeoutMs: 50 },
      'whatsapp_unreachable',
    ],
  ];
  for (const [what, breakIt, mendIt, engine, cause] of outages) {
    it(`${what} on every start → retried past reconnect.maxAttempts, the cause and next attempt in info, READY once it is back`, async () => {
      breakIt();
      const client = makeSdk(engine).createClient({ name: 'bot' });
      const seen = observe(client);
      client.on('qr', (qr) => void network.link(qr, BOT));
      await client.initialize();
      // maxAttempts is 2: twice that many reconnects and still retrying
      await waitUntil(() => network.created.length >= 5, 'five starts', 10_000);
      expect(client.state).to.be.oneOf(['DISCONNECTED', 'STARTING']);
      expect(seen.states).to.not.include('FAILED');
      await waitUntil(() => client.info().reconnect !== null, 'reconnect info');
      const info = client.info().reconnect;
      expect(info).to.include({ reason: 'connection_lost', cause, untilCured: true });
      expect(info?.attempt).to.be.greaterThan(2);
      expect(Number.isNaN(Date.parse(info?.nextAttemptAt ?? ''))).to.equal(false);
      mendIt();
      await client.waitUntilReady({ timeoutMs: 5_000 });
      expect(client.info().reconnect).to.equal(null);
      expect(seen.states).to.not.include('FAILED');
    });
  }

  it('a successful reconnect resets the failure count', async () => {
    const client = await linkedClient();
    const seen = observe(client);
    for (let i = 0; i < 4; i++) {
      const ready = seen.states.filter((s) => s === 'READY').length;
      network.last.pupBrowser?.crash();
      await waitUntil(
        () => seen.states.filter((s) => s === 'READY').length === ready + 1,
        `READY after crash ${i + 1}`,
      );
    }
    expect(seen.disconnects).to.deep.equal(Array(4).fill('browser_crashed'));
    expect(client.state).to.equal('READY');
  });

  it('stop() during the backoff cancels the reconnect', async () => {
    network.offline = true;
    const client = makeSdk(
      {},
      {},
      { initialDelayMs: 300, maxDelayMs: 300, jitter: 'none' },
    ).createClient({
      name: 'bot',
    });
    await client.initialize();
    await waitUntil(() => client.state === 'DISCONNECTED', 'DISCONNECTED');
    await client.stop();
    expect(client.state).to.equal('STOPPED');
    await sleep(700);
    expect(network.created).to.have.length(1);
    expect(client.state).to.equal('STOPPED');
    expect(network.last.pupBrowser?.isConnected() ?? false).to.equal(false);
  });

  it('stop() destroys without logging out; initialize() again restores the session without a QR', async () => {
    const client = await linkedClient();
    const first = network.last;
    await client.stop();
    expect(client.state).to.equal('STOPPED');
    expect(methods(first)).to.include('destroy').and.not.include('logout');
    expect(first.pupBrowser?.isConnected()).to.equal(false);
    const seen = observe(client);
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    expect(seen.qrs).to.equal(0);
    expect(seen.restored).to.deep.equal([true]);
    expect(network.created).to.have.length(2);
  });

  it('the session expiring (UNPAIRED) deletes it and stops, without reconnecting', async () => {
    const client = await linkedClient();
    const seen = observe(client);
    void network.last.changeState('UNPAIRED');
    await waitUntil(() => client.state === 'STOPPED', 'STOPPED');
    expect(seen.disconnects).to.deep.equal(['session_expired']);
    await sleep(100);
    expect(network.created).to.have.length(1);
    const again = observe(client);
    await client.initialize();
    await waitUntil(() => again.qrs > 0, 'a new QR (the session is gone)');
  });

  it('no Chromium: initialize() rejects with BROWSER_NOT_FOUND and the client is FAILED', async () => {
    const client = makeSdk(
      {},
      { browserEnvironment: { env: {}, isRoot: false, isExecutable: () => false } },
    ).createClient({ name: 'bot' });
    const error = await expectCode(client.initialize(), 'BROWSER_NOT_FOUND');
    expect(error.message).to.include('apt-get install chromium');
    expect(client.state).to.equal('FAILED');
    expect(network.created).to.have.length(0);
  });
});
