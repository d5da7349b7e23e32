/** Simulator-specific linking behaviour: QR codes, auto-scan, pairing, expiry, auth failures, persistence. */
import { expect } from 'chai';
import sinon from 'sinon';
import { rm } from 'node:fs/promises';
import {
  SimulatorNetwork,
  derivePhone,
  type SimulatorEngineConfig,
} from '../../src/engines/simulator/index.js';
import type { Engine } from '../../src/engines/engine.js';
import { expectCode, nextEvent, recordEvents } from './engine-contract.js';
import {
  BOT_NUMBER,
  MemorySessionStore,
  flush,
  seeded,
  silentLogger,
  simFixture,
  simLink,
  tempDir,
} from '../helpers/sim-harness.js';

function setup(config: Partial<SimulatorEngineConfig> = {}, store = new MemorySessionStore()) {
  const network = new SimulatorNetwork({ config, logger: silentLogger, random: seeded(7) });
  const factory = network.engineFactory();
  const engine = (clientName = 'bot') => factory({ clientName, store, logger: silentLogger });
  return { network, store, engine };
}

const QR_SHAPE =
  /^2@[A-Za-z0-9+/=]{80,},[A-Za-z0-9+/=]{40,},[A-Za-z0-9+/=]{40,},[A-Za-z0-9+/=]{40,}$/;

describe('simulator engine: linking', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  const started: Engine[] = [];
  afterEach(async () => {
    for (const engine of started.splice(0)) await engine.stop();
    clock?.restore();
    clock = undefined;
  });
  function track<T extends Engine>(engine: T): T {
    started.push(engine);
    return engine;
  }

  it('shows a new WhatsApp-shaped QR on every refresh, then gives up with qr_timeout', async () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { network, engine: make } = setup({ qrRefreshMs: 1_000, qrMaxRetries: 3 });
    const engine = track(make());
    const events = recordEvents(engine);
    await engine.start();
    const qrs = () => events.filter((e) => e.event === 'qr').map((e) => e.args[0] as string);
    expect(qrs()).to.have.length(1);
    clock.tick(999);
    expect(qrs()).to.have.length(1);
    clock.tick(1);
    expect(qrs()).to.have.length(2);
    clock.tick(1_000);
    expect(qrs()).to.have.length(3);
    expect(new Set(qrs()).size).to.equal(3);
    for (const qr of qrs()) expect(qr).to.match(QR_SHAPE);
    // a replaced QR can no longer be scanned
    expect(() => network.scan(qrs()[0]))
      .to.throw()
      .with.property('code', 'QR_NOT_AVAILABLE');
    clock.tick(1_000);
    expect(events.map((e) => e.event)).to.deep.equal(['qr', 'qr', 'qr', 'disconnected']);
    expect(events[3].args).to.deep.equal(['qr_timeout']);
    expect(() => network.scan(qrs()[2]))
      .to.throw()
      .with.property('code', 'QR_NOT_AVAILABLE');
    clock.tick(60_000);
    expect(events).to.have.length(4);
    // it can be started again
    await engine.start();
    expect(events[4].event).to.equal('qr');
  });

  it('unknown QR strings are QR_NOT_AVAILABLE', () => {
    const { network } = setup();
    expect(() => network.scan('2@nope'))
      .to.throw()
      .with.property('code', 'QR_NOT_AVAILABLE');
  });

  it('scan links with the given phone and pushname and saves the session', async () => {
    const { network, store, engine: make } = setup();
    const engine = track(make());
    const qr = nextEvent(engine, 'qr');
    const authenticated = nextEvent(engine, 'authenticated');
    const ready = nextEvent(engine, 'ready');
    await engine.start();
    network.scan((await qr)[0], { phone: '+1 555 000 0001', pushname: 'Shop' });
    expect((await authenticated)[0]).to.deep.equal({ restored: false });
    await ready;
    expect(engine.me()).to.deep.equal({ id: `${BOT_NUMBER}@c.us`, pushname: 'Shop' });
    expect(store.data.get('bot')).to.be.instanceOf(Buffer);
    expect(network.linkedPhone('bot')?.id).to.equal(`${BOT_NUMBER}@c.us`);
  });

  it('stop() and logout() during a link wait for its session write: nothing is saved after them', async () => {
    /** A store whose writes finish only when the test lets them. */
    class SlowStore extends MemorySessionStore {
      readonly pending: Array<() => void> = [];
      override write(client: string, data: Buffer): Promise<void> {
        return new Promise((resolve) =>
          this.pending.push(() => {
            this.data.set(client, Buffer.from(data));
            resolve();
          }),
        );
      }
    }
    const store = new SlowStore();
    const { network, engine: make } = setup({}, store);
    for (const end of ['stop', 'logout'] as const) {
      const engine = track(make(end));
      const qr = nextEvent(engine, 'qr');
      await engine.start();
      network.scan((await qr)[0], { phone: '+1 555 000 0001' });
      let ended = false;
      const ending = (end === 'stop' ? engine.stop() : engine.logout()).then(() => (ended = true));
      await flush();
      expect(ended, end).to.equal(false);
      store.pending.shift()!();
      await ending;
      expect(store.data.has(end), end).to.equal(end === 'stop');
      expect(engine.me(), end).to.equal(null);
    }
  });

  it('autoScanMs links by itself with autoScanPhone, or a phone derived stably from the name', async () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { engine: make } = setup({ autoScanMs: 500, autoScanPhone: '4915112345678' });
    const a = track(make('alpha'));
    const readyA = nextEvent(a, 'ready');
    await a.start();
    clock.tick(499);
    await flush();
    expect(a.me()).to.equal(null);
    clock.tick(1);
    await flush();
    await readyA;
    expect(a.me()?.id).to.equal('4915112345678@c.us');

    const derived = setup({ autoScanMs: 10 });
    const b = track(derived.engine('beta'));
    const readyB = nextEvent(b, 'ready');
    await b.start();
    clock.tick(10);
    await flush();
    await readyB;
    expect(b.me()?.id).to.equal(`${derivePhone('beta')}@c.us`);
    expect(derivePhone('beta'))
      .to.equal(derivePhone('beta'))
      .and.match(/^1555\d{7}$/);
    expect(derivePhone('beta')).to.not.equal(derivePhone('gamma'));
  });

  it('requestPairingCode returns an 8-character code and links the number', async () => {
    const { engine: make } = setup();
    const engine = track(make());
    await expectCode(engine.ops.account.requestPairingCode('15550000001'), 'INVALID_STATE');
    const qr = nextEvent(engine, 'qr');
    await engine.start();
    await qr;
    const ready = nextEvent(engine, 'ready');
    await expectCode(engine.ops.account.requestPairingCode('abc'), 'VALIDATION_FAILED');
    const code = await engine.ops.account.requestPairingCode('+44 7700 900123');
    expect(code).to.match(/^[A-Z0-9]{8}$/);
    await ready;
    expect(engine.me()?.id).to.equal('447700900123@c.us');
  });

  it('expireSession: disconnected(session_expired), the session is deleted and a restart shows a QR', async () => {
    const { network, store, engine: make } = setup();
    const engine = track(make());
    await simLink(network, engine);
    const saved = store.data.get('bot');
    const disconnected = nextEvent(engine, 'disconnected');
    network.expireSession('bot');
    expect((await disconnected)[0]).to.equal('session_expired');
    expect(store.data.has('bot')).to.equal(false);
    await expectCode(
      engine.send('15550001111@c.us', { kind: 'text', text: 'x', options: {} }),
      'CLIENT_NOT_READY',
    );
    // even if the old bytes come back, this network no longer accepts them
    await store.write('bot', saved as Buffer);
    const qr = nextEvent(engine, 'qr');
    await engine.start();
    await qr;
    expect(store.data.has('bot')).to.equal(false);
  });

  it('failAuth: the next restore fails with auth_failure (AUTH_FAILED), keeping the session', async () => {
    const { network, store, engine: make } = setup();
    const engine = track(make());
    await simLink(network, engine);
    await engine.stop();
    network.failAuth('bot');
    const events = recordEvents(engine);
    const failure = nextEvent(engine, 'auth_failure');
    await engine.start();
    const [error] = await failure;
    expect(error.code).to.equal('AUTH_FAILED');
    expect(events.map((e) => e.event)).to.deep.equal(['auth_failure']);
    expect(store.data.has('bot')).to.equal(true);
    // only the next restore
    const ready = nextEvent(engine, 'ready');
    await engine.start();
    await ready;
  });

  it('corrupt session bytes are an auth_failure', async () => {
    const { store, engine: make } = setup();
    await store.write('bot', Buffer.from('garbage'));
    const engine = track(make());
    const failure = nextEvent(engine, 'auth_failure');
    await engine.start();
    expect((await failure)[0].code).to.equal('AUTH_FAILED');
  });

  describe('disconnect reasons', () => {
    for (const reason of ['connection_lost', 'browser_crashed', 'conflict'] as const) {
      it(`${reason} keeps the session: the next start restores without QR`, async () => {
        const { network, store, engine: make } = setup();
        const engine = track(make());
        await simLink(network, engine);
        const disconnected = nextEvent(engine, 'disconnected');
        network.disconnect('bot', reason);
        expect((await disconnected)[0]).to.equal(reason);
        expect(engine.me()).to.equal(null);
        expect(store.data.has('bot')).to.equal(true);
        const authenticated = nextEvent(engine, 'authenticated');
        await engine.start();
        expect((await authenticated)[0]).to.deep.equal({ restored: true });
      });
    }

    it('logout (from the phone) deletes the session', async () => {
      const { network, store, engine: make } = setup();
      const engine = track(make());
      await simLink(network, engine);
      const disconnected = nextEvent(engine, 'disconnected');
      network.disconnect('bot', 'logout');
      expect((await disconnected)[0]).to.equal('logout');
      expect(store.data.has('bot')).to.equal(false);
    });

    it('banned: later restores of the number end in disconnected(banned)', async () => {
      const { network, engine: make } = setup();
      const engine = track(make());
      await simLink(network, engine);
      network.disconnect('bot', 'banned');
      const events = recordEvents(engine);
      const disconnected = nextEvent(engine, 'disconnected');
      await engine.start();
      expect((await disconnected)[0]).to.equal('banned');
      expect(events.map((e) => e.event)).to.deep.equal(['disconnected']);
    });

    it('unknown clients are CLIENT_NOT_FOUND; clients not running are INVALID_STATE', () => {
      const { network, engine: make } = setup();
      make('idle');
      expect(() => network.disconnect('nobody', 'connection_lost'))
        .to.throw()
        .with.property('code', 'CLIENT_NOT_FOUND');
      expect(() => network.expireSession('idle'))
        .to.throw()
        .with.property('code', 'INVALID_STATE');
    });
  });

  it('restores in a brand-new network on the same dataPath (LocalSessionStore)', async () => {
    const dir = await tempDir();
    try {
      const first = await simFixture({}, dir);
      const one = first.engine('persisted');
      await simLink(first.network, one, '15557770000');
      await first.cleanup();

      const second = await simFixture({}, dir);
      const two = second.engine('persisted');
      const events = recordEvents(two);
      const ready = nextEvent(two, 'ready');
      await two.start();
      await ready;
      expect(events.map((e) => e.event)).to.deep.equal(['authenticated', 'ready']);
      expect(two.me()?.id).to.equal('15557770000@c.us');
      // the restored account is reachable on the new network
      const reply = nextEvent(two, 'message');
      await second.network.phone('15550001111').send('15557770000@c.us', 'still there?');
      expect((await reply)[0].body).to.equal('still there?');
      await second.cleanup();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
