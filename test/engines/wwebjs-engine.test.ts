import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sinon from 'sinon';
import { pino } from 'pino';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import type { DisconnectReason, MessageData } from '../../src/engines/types.js';
import { engineSchema } from '../../src/config/schema.js';
import { createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import type { WwebjsEngineDeps, WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { expectCode, nextEvent, recordEvents, sleep } from './engine-contract.js';
import {
  BOT,
  CONTACT,
  FakeMessageMedia,
  OPEN_GROUP,
  populatedNetwork,
  type FakeClient,
  type FakeWhatsAppNetwork,
} from '../helpers/fake-wwebjs-client.js';

const logger = pino({ level: 'silent' });

async function waitUntil(probe: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

function config(overrides: Record<string, unknown> = {}): WwebjsEngineConfig {
  return engineSchema.parse({ type: 'whatsapp-web.js', ...overrides }) as WwebjsEngineConfig;
}

describe('wwebjs engine (fake whatsapp-web.js)', function () {
  this.timeout(10_000);
  let dir: string;
  let store: LocalSessionStore;
  let network: FakeWhatsAppNetwork;
  let engines: WwebjsEngine[];
  let clock: sinon.SinonFakeTimers | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-engine-'));
    store = new LocalSessionStore(dir);
    network = populatedNetwork({ ackDelayMs: 5 });
    engines = [];
  });

  afterEach(async () => {
    clock?.restore();
    clock = undefined;
    for (const engine of engines) await engine.stop();
    await rm(dir, { recursive: true, force: true });
  });

  function makeEngine(
    overrides: Record<string, unknown> = {},
    deps: WwebjsEngineDeps = {},
  ): WwebjsEngine {
    const factory = createWwebjsEngineFactory(config(overrides), {
      bindings: network.bindings(),
      browserEnvironment: { env: {}, isRoot: false, isExecutable: () => true },
      isProcessAlive: () => false,
      ...deps,
    });
    const engine = factory({ clientName: 'bot', store, logger }) as WwebjsEngine;
    engines.push(engine);
    return engine;
  }

  async function linked(engine: WwebjsEngine): Promise<FakeClient> {
    const qr = nextEvent(engine, 'qr');
    const ready = nextEvent(engine, 'ready');
    await engine.start();
    await network.link((await qr)[0], BOT);
    await ready;
    return network.last;
  }

  describe('launch', () => {
    it('creates the Client with LocalAuth in the private work dir and the mapped options', async () => {
      const engine = makeEngine({ qrMaxRetries: 3, authTimeoutMs: 1234, userAgent: 'UA/1' });
      const qr = nextEvent(engine, 'qr');
      await engine.start();
      await qr;
      const client = network.last;
      expect(client.options).to.include({
        qrMaxRetries: 3,
        authTimeoutMs: 1234,
        takeoverOnConflict: false,
        userAgent: 'UA/1',
      });
      expect(client.options.puppeteer).to.include({
        executablePath: '/usr/bin/chromium',
        headless: true,
        userDataDir: path.join(dir, 'bot', 'session-bot'),
      });
      // unpinned: no default pin, the live build (cached in the client's work directory)
      expect(client.options.webVersion).to.equal(undefined);
      expect(client.options.webVersionCache).to.deep.equal({
        type: 'local',
        path: path.join(dir, 'bot', 'web-cache'),
      });
      expect(client.calls.map((c) => c.method)).to.deep.equal(['initialize']);
    });

    it('rejects start() with BROWSER_NOT_FOUND and creates no Client when there is no Chromium', async () => {
      const engine = makeEngine(
        {},
        { browserEnvironment: { env: {}, isRoot: false, isExecutable: () => false } },
      );
      await expectCode(engine.start(), 'BROWSER_NOT_FOUND');
      expect(network.created).to.have.length(0);
    });

    it('maps whatsapp-web.js giving up on QR codes to disconnected(qr_timeout), without restarting', async () => {
      network.qrRefreshMs = 10;
      const engine = makeEngine({ qrMaxRetries: 2 });
      const events = recordEvents(engine);
      const disconnected = nextEvent(engine, 'disconnected');
      await engine.start();
      expect((await disconnected)[0]).to.equal('qr_timeout');
      await new Promise((r) => setTimeout(r, 50));
      expect(events.map((e) => e.event)).to.deep.equal(['qr', 'qr', 'qr', 'disconnected']);
      expect(network.created).to.have.length(1);
      expect(network.last.pupBrowser?.isConnected()).to.equal(false);
    });

    it('maps a whatsapp-web.js auth_failure to AUTH_FAILED', async () => {
      const engine = makeEngine();
      const qr = nextEvent(engine, 'qr');
      await engine.start();
      await qr;
      const failure = nextEvent(engine, 'auth_failure');
      network.last.emit('auth_failure', 'restore failed');
      expect((await failure)[0].code).to.equal('AUTH_FAILED');
      await waitUntil(() => network.last.calls.some((c) => c.method === 'destroy'), 'destroy()');
      expect(network.last.calls.map((c) => c.method)).not.to.include('logout');
    });
  });

  describe('events', () => {
    it('emits plain MessageData for message / message_create, and AckUpdates for message_ack', async () => {
      const engine = makeEngine();
      await linked(engine);
      const received: MessageData[] = [];
      engine.on('message', (m) => received.push(m));
      const acks = recordEvents(engine);
      network.receive(BOT, '15550002222@c.us', { text: 'in the group' }, OPEN_GROUP);
      const [message] = received;
      expect(message).to.include({
        from: OPEN_GROUP,
        author: '15550002222@c.us',
        isGroup: true,
        chatId: OPEN_GROUP,
      });
      expect(message.notifyName).to.equal('Contact 15550002222');
      for (const value of Object.values(message)) expect(value).not.to.be.a('function');
      expect(Object.getPrototypeOf(message)).to.equal(Object.prototype);
      expect(JSON.parse(JSON.stringify(message))).to.deep.equal(message);
      expect(acks.map((e) => e.event)).to.deep.equal(['message.create', 'message']);

      const ack = nextEvent(engine, 'message.ack', (u) => u.ack === 3);
      const { id } = await engine.send(CONTACT, { kind: 'text', text: 'hi', options: {} });
      expect((await ack)[0]).to.deep.equal({ messageId: id, chatId: CONTACT, ack: 3 });
    });

    const drops: Array<[string, (c: FakeClient) => unknown, DisconnectReason]> = [
      ['UNPAIRED', (c) => c.changeState('UNPAIRED'), 'session_expired'],
      ['UNPAIRED_IDLE', (c) => c.changeState('UNPAIRED_IDLE'), 'session_expired'],
      ['LOGOUT', (c) => c.loggedOutFromPhone(), 'logout'],
      ['TOS_BLOCK', (c) => c.changeState('TOS_BLOCK'), 'banned'],
      ['SMB_TOS_BLOCK', (c) => c.changeState('SMB_TOS_BLOCK'), 'banned'],
      ['CONFLICT', (c) => c.changeState('CONFLICT'), 'conflict'],
      ['PROXYBLOCK', (c) => c.changeState('PROXYBLOCK'), 'connection_lost'],
      ['TIMEOUT while READY', (c) => c.changeState('TIMEOUT'), 'connection_lost'],
      ['browser crash', (c) => c.pupBrowser?.crash(), 'browser_crashed'],
      ['page crash', (c) => c.pupPage?.crash(), 'browser_crashed'],
    ];
    for (const [what, drop, reason] of drops) {
      it(`${what} → one disconnected(${reason}), the browser is destroyed, no restart by the engine`, async () => {
        const engine = makeEngine();
        const first = await linked(engine);
        const events = recordEvents(engine);
        void drop(first);
        await waitUntil(() => first.calls.some((c) => c.method === 'destroy'), 'destroy()');
        await sleep(100);
        expect(events.map((e) => e.event)).to.deep.equal(['disconnected']);
        expect(events[0].args[0]).to.equal(reason);
        expect(first.pupBrowser?.isConnected()).to.equal(false);
        expect(first.calls.map((c) => c.method)).not.to.include('logout');
        expect(network.created).to.have.length(1);
        expect(engine.me()).to.equal(null);
        await expectCode(
          engine.send(CONTACT, { kind: 'text', text: 'x', options: {} }),
          'CLIENT_NOT_READY',
        );
      });
    }

    it('WhatsApp Web recovering by itself (CONNECTED after TIMEOUT) is ignored: the attempt is over', async () => {
      const engine = makeEngine();
      const client = await linked(engine);
      const events = recordEvents(engine);
      await client.changeState('TIMEOUT');
      await client.changeState('CONNECTED');
      client.emit('ready');
      expect(events.map((e) => e.event)).to.deep.equal(['disconnected']);
      expect(events[0].args[0]).to.equal('connection_lost');
      await expectCode(
        engine.send(CONTACT, { kind: 'text', text: 'x', options: {} }),
        'CLIENT_NOT_READY',
      );
    });

    it('change_state TIMEOUT before READY is left to the start watchdog', async () => {
      const engine = makeEngine();
      const qr = nextEvent(engine, 'qr');
      await engine.start();
      await qr;
      const events = recordEvents(engine);
      await network.last.changeState('TIMEOUT');
      expect(events).to.deep.equal([]);
    });
  });

  describe('sending', () => {
    const sendCalls = (client: FakeClient) =>
      client.calls.filter((c) => c.method === 'sendMessage').map((c) => c.args);

    it('passes text and only the given options to sendMessage', async () => {
      const engine = makeEngine();
      const client = await linked(engine);
      await engine.send(CONTACT, { kind: 'text', text: 'plain', options: {} });
      await engine.send(CONTACT, {
        kind: 'text',
        text: 'all',
        options: {
          linkPreview: false,
          sendSeen: false,
          mentions: [CONTACT],
          quotedMessageId: 'true_x_y',
        },
      });
      expect(sendCalls(client)).to.deep.equal([
        [CONTACT, 'plain', {}],
        [
          CONTACT,
          'all',
          { linkPreview: false, sendSeen: false, mentions: [CONTACT], quotedMessageId: 'true_x_y' },
        ],
      ]);
    });

    it('sends media as MessageMedia(mimetype, base64, filename) with caption, sticker and document flags', async () => {
      const engine = makeEngine();
      const client = await linked(engine);
      const bytes = Buffer.from('bytes');
      const media = { data: bytes, mimetype: 'image/png', filename: 'a.png' };
      await engine.send(CONTACT, { kind: 'image', media, caption: 'cap' });
      await engine.send(CONTACT, {
        kind: 'sticker',
        media: { data: bytes, mimetype: 'image/webp' },
      });
      await engine.send(CONTACT, {
        kind: 'document',
        media: { ...media, mimetype: 'application/pdf' },
        caption: 'doc',
      });
      await engine.send(CONTACT, { kind: 'audio', media: { data: bytes, mimetype: 'audio/ogg' } });
      const calls = sendCalls(client);
      for (const [, content] of calls) expect(content).to.be.instanceOf(FakeMessageMedia);
      expect(calls.map(([, content]) => ({ ...(content as FakeMessageMedia) }))).to.deep.equal([
        {
          mimetype: 'image/png',
          data: bytes.toString('base64'),
          filename: 'a.png',
          filesize: undefined,
        },
        {
          mimetype: 'image/webp',
          data: bytes.toString('base64'),
          filename: undefined,
          filesize: undefined,
        },
        {
          mimetype: 'application/pdf',
          data: bytes.toString('base64'),
          filename: 'a.png',
          filesize: undefined,
        },
        {
          mimetype: 'audio/ogg',
          data: bytes.toString('base64'),
          filename: undefined,
          filesize: undefined,
        },
      ]);
      expect(calls.map(([, , options]) => options)).to.deep.equal([
        { caption: 'cap' },
        { sendMediaAsSticker: true },
        { caption: 'doc', sendMediaAsDocument: true },
        {},
      ]);
    });

    it('sends to the id getNumberId returns; unregistered numbers are CHAT_NOT_FOUND before sendMessage', async () => {
      const engine = makeEngine();
      const client = await linked(engine);
      await expectCode(
        engine.send('19990000000@c.us', { kind: 'text', text: 'x', options: {} }),
        'CHAT_NOT_FOUND',
      );
      await expectCode(
        engine.send('120363999999999999@g.us', { kind: 'text', text: 'x', options: {} }),
        'CHAT_NOT_FOUND',
      );
      expect(sendCalls(client)).to.deep.equal([]);
    });

    it('a group where the account is no member is PERMISSION_DENIED', async () => {
      network.groups.set('120363000000000009@g.us', {
        announce: false,
        participants: [{ id: CONTACT, isAdmin: true }],
      });
      const engine = makeEngine();
      await linked(engine);
      await expectCode(
        engine.send('120363000000000009@g.us', { kind: 'text', text: 'x', options: {} }),
        'PERMISSION_DENIED',
      );
      await engine.send(OPEN_GROUP, { kind: 'text', text: 'allowed', options: {} });
    });

    it('maps errors thrown by sendMessage, keeping the cause; undefined results are CHAT_NOT_FOUND', async () => {
      const engine = makeEngine();
      const client = await linked(engine);
      const boom = new Error('Evaluation failed: Error: something broke');
      const stub = sinon.stub(client, 'sendMessage').rejects(boom);
      const error = await expectCode(
        engine.send(CONTACT, { kind: 'text', text: 'x', options: {} }),
        'ENGINE_ERROR',
      );
      expect(error.cause).to.equal(boom);
      stub.resolves(undefined);
      await expectCode(
        engine.send(CONTACT, { kind: 'text', text: 'x', options: {} }),
        'CHAT_NOT_FOUND',
      );
    });

    it('isGroupAdmin reads the group participants', async () => {
      const engine = makeEngine();
      await linked(engine);
      expect(await engine.ops.groups.isAdmin(OPEN_GROUP, BOT)).to.equal(true);
      expect(await engine.ops.groups.isAdmin(OPEN_GROUP, CONTACT)).to.equal(false);
      expect(await engine.ops.groups.isAdmin('120363999999999999@g.us', BOT)).to.equal(false);
    });

    it('forward and downloadMedia of unknown ids are MESSAGE_NOT_FOUND / MEDIA_NOT_FOUND', async () => {
      const engine = makeEngine();
      await linked(engine);
      await expectCode(engine.forward(`false_${CONTACT}_NOPE`, CONTACT), 'MESSAGE_NOT_FOUND');
      await expectCode(engine.downloadMedia('garbage'), 'MEDIA_NOT_FOUND');
    });
  });

  describe('stop and logout', () => {
    it('stop() destroys and never logs out; the session stays and restores without a QR', async () => {
      const engine = makeEngine();
      const client = await linked(engine);
      await engine.stop();
      expect(client.calls.map((c) => c.method))
        .to.include('destroy')
        .and.not.include('logout');
      expect(client.pupBrowser?.isConnected()).to.equal(false);
      const again = makeEngine();
      const events = recordEvents(again);
      const ready = nextEvent(again, 'ready');
      await again.start();
      await ready;
      expect(events.map((e) => e.event)).to.deep.equal(['authenticated', 'ready']);
    });

    it('kills the browser by pid when destroy() fails and Chromium is still alive', async () => {
      const killed: number[] = [];
      const engine = makeEngine(
        {},
        { isProcessAlive: () => true, killProcess: (pid) => killed.push(pid) },
      );
      const client = await linked(engine);
      sinon.stub(client, 'destroy').rejects(new Error('Protocol error: Connection closed'));
      await engine.stop();
      expect(killed).to.deep.equal([client.pupBrowser?.pid]);
    });

    it('logout() calls client.logout(), destroys, and deletes the session', async () => {
      const engine = makeEngine();
      const client = await linked(engine);
      await engine.logout();
      expect(client.calls.map((c) => c.method)).to.deep.equal(['initialize', 'logout', 'destroy']);
      expect(await store.exists('bot')).to.equal(false);
      const again = makeEngine();
      const qr = nextEvent(again, 'qr');
      await again.start();
      await qr;
    });
  });

  describe('pairing code', () => {
    it('asks whatsapp-web.js for a code while waiting to be linked', async () => {
      const engine = makeEngine();
      await expectCode(engine.ops.account.requestPairingCode('+1 555 000 0001'), 'INVALID_STATE');
      const qr = nextEvent(engine, 'qr');
      await engine.start();
      await qr;
      await expectCode(engine.ops.account.requestPairingCode('12'), 'VALIDATION_FAILED');
      expect(await engine.ops.account.requestPairingCode('+1 555-000-0001')).to.equal('ABCD1234');
      expect(network.last.calls.at(-1)).to.deep.equal({
        method: 'requestPairingCode',
        args: ['15550000001', true, 180000],
      });
    });
  });

  describe('one attempt per start (the client supervisor restarts)', () => {
    it('WhatsApp Web unreachable → one disconnected(connection_lost), the browser destroyed, nothing more', async () => {
      network.offline = true;
      const engine = makeEngine();
      const events = recordEvents(engine);
      await engine.start();
      await waitUntil(() => events.length > 0, 'an event');
      await waitUntil(() => network.last.calls.some((c) => c.method === 'destroy'), 'destroy()');
      await sleep(100);
      expect(events.map((e) => [e.event, e.args[0]])).to.deep.equal([
        ['disconnected', 'connection_lost'],
      ]);
      expect(network.created).to.have.length(1);
      expect(network.last.pupBrowser?.isConnected()).to.equal(false);
    });

    it('Chromium failing to launch → one disconnected(browser_crashed)', async () => {
      network.launchError = 'Failed to launch the browser process!';
      const engine = makeEngine();
      const disconnected = nextEvent(engine, 'disconnected');
      await engine.start();
      expect((await disconnected)[0]).to.equal('browser_crashed');
      await sleep(50);
      expect(network.created).to.have.length(1);
    });

    it('a launch that never loads is ended by the authTimeoutMs watchdog (fake timers)', async () => {
      network.hangOnLoad = true;
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const engine = makeEngine({ authTimeoutMs: 5_000 });
      const events = recordEvents(engine);
      await engine.start();
      const deadline = performance.now() + 3_000;
      while (!network.created[0]?.pupBrowser && performance.now() < deadline) {
        await new Promise((r) => setImmediate(r));
      }
      await clock.tickAsync(4_999);
      expect(events).to.deep.equal([]);
      await clock.tickAsync(1);
      expect(events.map((e) => [e.event, e.args[0]])).to.deep.equal([
        ['disconnected', 'connection_lost'],
      ]);
      await clock.tickAsync(600_000);
      expect(events).to.have.length(1);
      expect(network.created).to.have.length(1);
      clock.restore();
      clock = undefined;
      await engine.stop();
      expect(network.last.calls.map((c) => c.method)).to.deep.equal(['initialize', 'destroy']);
    });

    it('stop() right after start() launches nothing more and leaves no browser', async () => {
      const engine = makeEngine();
      const events = recordEvents(engine);
      await engine.start();
      await engine.stop();
      await sleep(50);
      expect(events).to.deep.equal([]);
      for (const client of network.created)
        expect(client.pupBrowser?.isConnected() ?? false).to.equal(false);
    });
  });
});
