import { expect } from 'chai';
import type { ClientState, Sdk, WakitError } from '../../src/index.js';
import { createSdk } from '../../src/index.js';
import { canTransition } from '../../src/client/core/state-machine.js';
import { BOT_PHONE, linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(predicate: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await wait(5);
  }
}

describe('SDK lifecycle and client states', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sdk: Sdk;

  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    await sdk?.stop();
    await cleanup();
  });

  it('start() creates and initializes the configured clients; stop() runs close hooks in reverse order', async () => {
    sdk = simulatorSdk(dir, { clients: ['a', 'b'], engine: { type: 'simulator', autoScanMs: 1 } });
    const order: string[] = [];
    sdk.onClose('one', () => {
      order.push('close:one');
    });
    sdk.onClose('two', async () => {
      order.push('close:two');
      await wait(1);
    });
    sdk.onClose('broken', () => {
      throw new Error('a failing hook does not stop the others');
    });
    expect(sdk.phase).to.equal('idle');
    await sdk.start();
    expect(sdk.phase).to.equal('started');
    expect(sdk.clients.map((c) => c.name)).to.deep.equal(['a', 'b']);
    await Promise.all(sdk.clients.map((c) => c.waitUntilReady({ timeoutMs: 3_000 })));
    await sdk.stop();
    expect(sdk.phase).to.equal('stopped');
    expect(order).to.deep.equal(['close:two', 'close:one']);
    expect(sdk.clients.every((c) => c.state === 'STOPPED')).to.equal(true);
    await sdk.stop(); // idempotent
    expect(() => sdk.createClient({ name: 'late' }))
      .to.throw()
      .with.property('code', 'INVALID_STATE');
  });

  it('start() twice is INVALID_STATE', async () => {
    sdk = simulatorSdk(dir);
    await sdk.start();
    const error = (await sdk.start().catch((e: unknown) => e)) as WakitError;
    expect(error.code).to.equal('INVALID_STATE');
  });

  it('an invalid config is CONFIG_INVALID before anything starts', () => {
    expect(() =>
      createSdk({ auth: { type: 'local' }, engine: { type: 'simulator', qrRefreshMs: 0 } }),
    )
      .to.throw()
      .with.property('code', 'CONFIG_INVALID');
    expect(() => createSdk(undefined as never))
      .to.throw()
      .with.property('code', 'CONFIG_INVALID');
  });

  it('rejects bad client names and duplicates', () => {
    sdk = simulatorSdk(dir);
    sdk.createClient({ name: 'one' });
    expect(() => sdk.createClient({ name: 'one' }))
      .to.throw()
      .with.property('code', 'CLIENT_EXISTS');
    for (const name of ['', '../etc', 'a b', 'x'.repeat(65), 'é']) {
      expect(() => sdk.createClient({ name }), name)
        .to.throw()
        .with.property('code', 'VALIDATION_FAILED');
    }
    expect(() => sdk.client('nobody'))
      .to.throw()
      .with.property('code', 'CLIENT_NOT_FOUND');
  });

  it('sdk.simulator exists only on the simulator engine', () => {
    sdk = createSdk({ auth: { type: 'local', dataPath: dir }, log: { level: 'silent' } });
    expect(() => sdk.simulator)
      .to.throw()
      .with.property('code', 'NOT_SUPPORTED');
  });

  it('reconnects after a recoverable disconnect without a QR: READY → DISCONNECTED → STARTING → AUTHENTICATED → READY', async () => {
    sdk = simulatorSdk(dir, {
      reconnect: { initialDelayMs: 5, maxDelayMs: 20 },
    });
    const client = await linkedClient(sdk, 'sales');
    const states: ClientState[] = [];
    const reasons: string[] = [];
    let qrs = 0;
    client.on('state', ({ to }) => states.push(to));
    client.on('disconnected', (reason) => reasons.push(reason));
    client.on('qr', () => qrs++);
    sdk.simulator.disconnect('sales', 'connection_lost');
    await until(() => states.at(-1) === 'READY');
    expect(states).to.deep.equal(['DISCONNECTED', 'STARTING', 'AUTHENTICATED', 'READY']);
    expect(reasons).to.deep.equal(['connection_lost']);
    expect(qrs).to.equal(0);
    const alice = sdk.simulator.phone('15550001111');
    await client.sendTextMessage({ to: alice.id, text: 'back' });
    expect(alice.inbox.at(-1)?.body).to.equal('back');
  });

  it('banned and qr_timeout end in FAILED; logout from the phone deletes the session', async () => {
    sdk = simulatorSdk(dir);
    const client = await linkedClient(sdk, 'sales');
    sdk.simulator.disconnect('sales', 'banned');
    await until(() => client.state === 'FAILED');
    expect(client.info().lastDisconnect?.reason).to.equal('banned');

    const other = await linkedClient(sdk, 'other', '15550000002');
    sdk.simulator.disconnect('other', 'logout');
    await until(() => other.state === 'STOPPED');
    const qr = new Promise<string>((resolve) => other.once('qr', resolve));
    await other.initialize();
    expect(await qr).to.be.a('string');
  });

  it('a QR never scanned ends in FAILED with qr_timeout', async () => {
    sdk = simulatorSdk(dir, { engine: { type: 'simulator', qrRefreshMs: 5, qrMaxRetries: 2 } });
    const client = sdk.createClient({ name: 'lonely' });
    const qrs: string[] = [];
    client.on('qr', (qr) => qrs.push(qr));
    const reason = new Promise<string>((resolve) => client.once('disconnected', resolve));
    await client.initialize();
    expect(await reason).to.equal('qr_timeout');
    await until(() => client.state === 'FAILED');
    expect(qrs.length).to.equal(2);
    expect(new Set(qrs).size).to.equal(2);
  });

  it('a throwing or rejecting handler is reported, never crashes, and other handlers still run', async () => {
    sdk = simulatorSdk(dir);
    const client = await linkedClient(sdk, 'sales');
    const reported: string[] = [];
    let after = 0;
    sdk.on('error', ({ event, source, client: name }) =>
      reported.push(`${source}:${name}:${event}`),
    );
    client.on('message', () => {
      throw new Error('sync boom');
    });
    client.on('message', () => Promise.reject(new Error('async boom')));
    client.on('message', () => {
      after++;
    });
    await sdk.simulator.phone('15550001111').send(`${BOT_PHONE}@c.us`, 'hi');
    await until(() => reported.length === 2);
    expect(reported).to.deep.equal(['handler:sales:message', 'handler:sales:message']);
    expect(after).to.equal(1);
  });

  it('holdUntilReady accepts sends before READY and sends them once linked', async () => {
    sdk = simulatorSdk(dir, {
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, holdUntilReady: true },
    });
    const alice = sdk.simulator.phone('15550001111');
    const client = sdk.createClient({ name: 'sales' });
    let qr = '';
    client.on('qr', (code) => {
      qr = code;
    });
    await client.initialize();
    await until(() => qr !== '');
    const sent = client.sendTextMessage({ to: alice.id, text: 'queued early' });
    await wait(20);
    expect(alice.inbox).to.have.length(0);
    sdk.simulator.scan(qr, { phone: BOT_PHONE });
    expect((await sent).id).to.be.a('string');
    expect(alice.inbox[0]?.body).to.equal('queued early');
  });

  it('waitUntilReady times out with TIMEOUT', async () => {
    sdk = simulatorSdk(dir);
    const client = sdk.createClient({ name: 'slow' });
    await client.initialize();
    const error = (await client
      .waitUntilReady({ timeoutMs: 20 })
      .catch((e: unknown) => e)) as WakitError;
    expect(error.code).to.equal('TIMEOUT');
  });

  it('the transition table of the client states', () => {
    expect(canTransition('STOPPED', 'STARTING')).to.equal(true);
    expect(canTransition('STOPPED', 'READY')).to.equal(false);
    expect(canTransition('SCAN_QR', 'AUTHENTICATED')).to.equal(true);
    expect(canTransition('AUTHENTICATED', 'READY')).to.equal(true);
    expect(canTransition('READY', 'DISCONNECTED')).to.equal(true);
    expect(canTransition('DISCONNECTED', 'STARTING')).to.equal(true);
    expect(canTransition('FAILED', 'STARTING')).to.equal(true);
    expect(canTransition('FAILED', 'READY')).to.equal(false);
  });
});
