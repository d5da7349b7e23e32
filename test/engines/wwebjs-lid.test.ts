/**
 * The adapter against the fake Client for LID addressing, contact resolution, channels/status and
 * the error strings of WhatsApp Web (each modelled on whatsapp-web.js 1.34's sources).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { engineSchema } from '../../src/config/schema.js';
import { createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import type { WwebjsEngine } from '../../src/engines/wwebjs/index.js';
import type { WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { mapSendError } from '../../src/engines/wwebjs/map-errors.js';
import {
  WEB_VERSION_ARCHIVE,
  buildClientOptions,
} from '../../src/engines/wwebjs/client-options.js';
import { expectCode, nextEvent, sleep } from './engine-contract.js';
import { createSdk, type Message, type Sdk } from '../../src/index.js';
import {
  BOT,
  CONTACT,
  OPEN_GROUP,
  UNKNOWN,
  populatedNetwork,
  type FakeClient,
  type FakeWhatsAppNetwork,
} from '../helpers/fake-wwebjs-client.js';
import { linkedWwebjsEngine } from '../helpers/linked-wwebjs-engine.js';

const logger = pino({ level: 'silent' });
const CONTACT_LID = '201234567890123@lid';
const HIDDEN = '15550004444@c.us';
const HIDDEN_LID = '209876543210987@lid';

describe('wwebjs engine: LID, contacts, channels and status (fake whatsapp-web.js)', function () {
  this.timeout(10_000);
  let dir: string;
  let network: FakeWhatsAppNetwork;
  let engine: WwebjsEngine;
  let client: FakeClient;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-lid-'));
    network = populatedNetwork({ ackDelayMs: 5 });
    network.assignLid(CONTACT, CONTACT_LID);
    network.assignLid(HIDDEN, HIDDEN_LID, true);
    ({ engine, client } = await linkedWwebjsEngine(network, dir, logger));
  });

  afterEach(async () => {
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('resolveContact uses getContactLidAndPhone (and getContactById for the pushname)', async () => {
    expect(await engine.ops.contacts.resolve(CONTACT)).to.deep.equal({
      id: CONTACT,
      lid: CONTACT_LID,
      phone: CONTACT,
      pushname: 'Contact 15550001111',
      isRegistered: true,
    });
    expect(client.calls.find((c) => c.method === 'getContactLidAndPhone')?.args).to.deep.equal([
      [CONTACT],
    ]);
    expect(await engine.ops.contacts.resolve(HIDDEN_LID)).to.deep.include({
      id: HIDDEN_LID,
      lid: HIDDEN_LID,
      isRegistered: true,
    });
    expect((await engine.ops.contacts.resolve(HIDDEN_LID)).phone).to.equal(undefined);
    expect(await engine.ops.contacts.resolve(UNKNOWN)).to.deep.equal({
      id: UNKNOWN,
      isRegistered: false,
    });
  });

  it('messages from a LID keep the LID as from and sender.id; sends to @lid go to the LID chat', async () => {
    const incoming = nextEvent(engine, 'message');
    network.receive(BOT, HIDDEN_LID, { text: 'hi by lid' });
    const [data] = await incoming;
    expect(data.from).to.equal(HIDDEN_LID);
    expect(data.sender).to.deep.equal({ id: HIDDEN_LID, pushname: 'Contact 209876543210987' });
    expect(data.isChannel).to.equal(false);
    const sent = await engine.send(HIDDEN_LID, { kind: 'text', text: 'back', options: {} });
    expect(sent.id).to.contain(HIDDEN_LID);
    const call = client.calls.find((c) => c.method === 'sendMessage');
    expect(call?.args[0]).to.equal(HIDDEN_LID);
    await expectCode(
      engine.send('299999999999999@lid', { kind: 'text', text: 'x', options: {} }),
      'CHAT_NOT_FOUND',
    );
  });

  it('"No LID for user" from WhatsApp Web is CHAT_NOT_FOUND that says what to do', async () => {
    network.noLid.add(CONTACT);
    const error = await expectCode(
      engine.send(CONTACT, { kind: 'text', text: 'x', options: {} }),
      'CHAT_NOT_FOUND',
    );
    expect(error.message).to.contain('No LID for user');
    expect(error.message).to.contain('@lid');
    expect(error.details).to.include({ reason: 'no_lid' });
  });

  it('isGroupAdmin matches a member given by LID against the phone ids of the participants', async () => {
    // getChatModel maps participants to phone ids (toPn, Injected/Utils.js:961-965)
    expect(await engine.ops.groups.isAdmin(OPEN_GROUP, BOT)).to.equal(true);
    network.assignLid(BOT, '201111111111111@lid');
    expect(await engine.ops.groups.isAdmin(OPEN_GROUP, '201111111111111@lid')).to.equal(true);
    expect(await engine.ops.groups.isAdmin(OPEN_GROUP, CONTACT_LID)).to.equal(false);
  });

  it('status updates are flagged isStatus with the poster as sender', async () => {
    const incoming = nextEvent(engine, 'message');
    network.receive(BOT, CONTACT, { text: 'my day' }, 'status@broadcast');
    const [data] = await incoming;
    expect(data).to.deep.include({
      from: 'status@broadcast',
      chatId: 'status@broadcast',
      isStatus: true,
      isChannel: false,
      isGroup: false,
    });
    expect(data.sender.id).to.equal(CONTACT);
  });

  it('maps page errors ("Evaluation failed") to ENGINE_ERROR naming the fix', () => {
    const page = mapSendError(
      new Error("Evaluation failed: TypeError: Cannot read properties of undefined (reading 'x')"),
      CONTACT,
    );
    expect(page.code).to.equal('ENGINE_ERROR');
    expect(page.message).to.contain('engine.webVersion');
    expect(page.details).to.include({ reason: 'page_error' });
    expect(
      mapSendError(new Error('Evaluation failed: Error: not-authorized'), OPEN_GROUP).code,
    ).to.equal('PERMISSION_DENIED');
    expect(
      mapSendError(new Error('Evaluation failed: Error: No LID for user'), CONTACT).code,
    ).to.equal('CHAT_NOT_FOUND');
  });

  it('pins WhatsApp Web from the archive or, strictly, from the local cache of builds that loaded', () => {
    const launch = { authStrategy: null, workDir: '/w/bot', executablePath: '/c', sandbox: true };
    const build = (extra: Record<string, unknown>) =>
      buildClientOptions(
        engineSchema.parse({ type: 'whatsapp-web.js', ...extra }) as WwebjsEngineConfig,
        launch,
        logger,
      );
    // the archive names 2.3000 builds `<version>-alpha` (archive-file-name test)
    expect(build({ webVersion: '2.3000.1027526765' })).to.deep.include({
      webVersion: '2.3000.1027526765-alpha',
      webVersionCache: { type: 'remote', remotePath: WEB_VERSION_ARCHIVE },
    });
    expect(
      build({ webVersion: '2.3000.1027526765', webVersionCache: 'local' }).webVersionCache,
    ).to.deep.equal({ type: 'local', path: '/w/bot/web-cache', strict: true });
    // unpinned: no default pin, whatever the cache (docs/engines.md)
    expect(build({}).webVersion).to.equal(undefined);
    expect(build({}).webVersionCache).to.deep.equal({ type: 'local', path: '/w/bot/web-cache' });
    expect(build({ webVersionCache: 'local' }).webVersion).to.equal(undefined);
    const live = build({ webVersion: 'live' });
    expect(live.webVersion).to.equal(undefined);
    expect(live.webVersionCache).to.deep.equal({ type: 'local', path: '/w/bot/web-cache' });
    expect(() => build({ webVersion: 'latest' })).to.throw();
    // a directory of the user's own builds (what the WhatsApp Web double is loaded through)
    const own = { type: 'local', path: '/srv/wa-builds' };
    expect(
      build({ webVersion: '2.3000.1027526765', webVersionCache: own }).webVersionCache,
    ).to.deep.equal({ ...own, strict: true });
    expect(build({ webVersionCache: own }).webVersionCache).to.deep.equal(own);
    expect(() => build({ webVersionCache: { type: 'local' } })).to.throw();
    expect(() => build({ webVersionCache: { type: 'remote', path: '/x' } })).to.throw();
  });
});

describe('BotClient on the fake whatsapp-web.js: LID senders completed, cached, replied to', function () {
  this.timeout(10_000);
  let dir: string;
  let network: FakeWhatsAppNetwork;
  let sdk: Sdk;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-wwebjs-lid-client-'));
    network = populatedNetwork({ ackDelayMs: 5 });
    network.assignLid(CONTACT, CONTACT_LID);
    const engine = { type: 'whatsapp-web.js' } as const;
    sdk = createSdk(
      {
        engine,
        auth: { type: 'local', dataPath: dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
        log: { level: 'silent' },
      },
      {
        logger,
        engineFactory: createWwebjsEngineFactory(engineSchema.parse(engine) as WwebjsEngineConfig, {
          bindings: network.bindings(),
          browserEnvironment: { env: {}, isRoot: false, isExecutable: () => true },
          isProcessAlive: () => false,
        }),
      },
    );
  });

  afterEach(async () => {
    await sdk.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('completes the sender through getContactLidAndPhone once, and replies into the LID chat', async () => {
    const client = sdk.createClient({ name: 'bot' });
    client.once('qr', (qr) => void network.link(qr, BOT));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    const received: Message[] = [];
    client.on('message', (m) => void received.push(m));
    network.receive(BOT, CONTACT_LID, { text: 'one' });
    network.receive(BOT, CONTACT_LID, { text: 'two' });
    const deadline = Date.now() + 3_000;
    while (received.length < 2 && Date.now() < deadline) await sleep(10);
    expect(received.map((m) => m.body)).to.deep.equal(['one', 'two']);
    expect(received[0].sender).to.deep.equal({
      id: CONTACT_LID,
      lid: CONTACT_LID,
      phone: CONTACT,
      pushname: 'Contact 201234567890123',
    });
    const fake = network.last;
    const lookUps = fake.calls.filter((c) => c.method === 'getContactLidAndPhone');
    expect(lookUps.map((c) => c.args[0])).to.deep.equal([[CONTACT_LID]]);
    await received[0].reply('answer');
    const sent = fake.calls.filter((c) => c.method === 'sendMessage').at(-1);
    expect(sent?.args[0]).to.equal(CONTACT_LID);
    expect(sent?.args[2]).to.include({ quotedMessageId: received[0].id });
    expect(await client.resolveContact('+1 555 000 1111')).to.include({
      lid: CONTACT_LID,
      isRegistered: true,
    });
  });
});
