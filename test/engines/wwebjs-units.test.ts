import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import { isWakitError } from '../../src/errors/index.js';
import {
  browserSandbox,
  buildLaunchOptions,
  mergeArgs,
  NO_SANDBOX_FLAGS,
  resolveExecutablePath,
  SERVER_FLAGS,
  type BrowserEnvironment,
} from '../../src/engines/wwebjs/browser.js';
import {
  classifyStartFailure,
  mapDisconnectReason,
  mapSendError,
} from '../../src/engines/wwebjs/map-errors.js';
import { toAck, toMessageData } from '../../src/engines/wwebjs/map-message.js';
import { RemoteAuthStoreAdapter } from '../../src/engines/wwebjs/remote-auth-store.js';
import type { MessageLike } from '../../src/engines/wwebjs/types.js';

const logger = pino({ level: 'silent' });

function env(files: string[], vars: NodeJS.ProcessEnv = {}, isRoot = false): BrowserEnvironment {
  return { env: vars, isRoot, isExecutable: (file) => files.includes(file) };
}

describe('wwebjs browser resolution and flags', () => {
  it('prefers engine.executablePath, then PUPPETEER_EXECUTABLE_PATH, then the default paths', () => {
    const all = ['/opt/chrome', '/env/chrome', '/usr/bin/chromium', '/usr/bin/google-chrome'];
    expect(
      resolveExecutablePath(
        { executablePath: '/opt/chrome' },
        env(all, { PUPPETEER_EXECUTABLE_PATH: '/env/chrome' }),
      ),
    ).to.equal('/opt/chrome');
    expect(
      resolveExecutablePath({}, env(all, { PUPPETEER_EXECUTABLE_PATH: '/env/chrome' })),
    ).to.equal('/env/chrome');
    expect(resolveExecutablePath({}, env(all))).to.equal('/usr/bin/chromium');
    expect(resolveExecutablePath({}, env(['/usr/bin/google-chrome']))).to.equal(
      '/usr/bin/google-chrome',
    );
    expect(resolveExecutablePath({}, env(['/usr/bin/chromium-browser']))).to.equal(
      '/usr/bin/chromium-browser',
    );
  });

  it('throws BROWSER_NOT_FOUND with install instructions when nothing is found', () => {
    for (const [config, vars] of [
      [{}, {}],
      [{ executablePath: '/missing/chrome' }, {}],
      [{}, { PUPPETEER_EXECUTABLE_PATH: '/missing/chrome' }],
    ] as const) {
      try {
        resolveExecutablePath(config, env(['/usr/bin/chromium-not-this'], vars));
        expect.fail('should have thrown');
      } catch (error) {
        expect(isWakitError(error, 'BROWSER_NOT_FOUND'), String(error)).to.equal(true);
        expect((error as Error).message).to.include('apt-get install chromium');
      }
    }
  });

  it('keeps the sandbox for a user outside containers; drops it as root, in a container, or when told', () => {
    const at = (isRoot: boolean, inContainer: boolean, vars: NodeJS.ProcessEnv = {}) =>
      browserSandbox({ ...env([], vars, isRoot), inContainer });
    expect(at(false, false)).to.equal(true);
    expect(at(true, false)).to.equal(false);
    expect(at(false, true)).to.equal(false);
    expect(at(false, true, { WAKIT_BROWSER_SANDBOX: 'on' })).to.equal(true);
    expect(at(false, false, { WAKIT_BROWSER_SANDBOX: 'off' })).to.equal(false);
    expect(() => at(false, false, { WAKIT_BROWSER_SANDBOX: 'yes' }))
      .to.throw(/WAKIT_BROWSER_SANDBOX=yes: use on or off/)
      .with.property('code', 'VALIDATION_FAILED');
  });

  it('uses server-safe flags, the no-sandbox flags only without the sandbox, and merges engine.puppeteer over them', () => {
    const defaults = { headless: true, puppeteer: {}, protocolTimeoutMs: 30_000 };
    const asUser = buildLaunchOptions(defaults, '/usr/bin/chromium', true);
    expect(asUser.options.args).to.deep.equal([...SERVER_FLAGS]);
    expect(asUser.options).to.include({
      headless: true,
      executablePath: '/usr/bin/chromium',
      handleSIGINT: false,
      // engine.protocolTimeoutMs: a page call that never answers fails (puppeteer's own: 180 s)
      protocolTimeout: 30_000,
    });
    const asRoot = buildLaunchOptions(defaults, '/c', false);
    expect(asRoot.options.args).to.include.members([...NO_SANDBOX_FLAGS, ...SERVER_FLAGS]);

    const merged = buildLaunchOptions(
      {
        headless: false,
        protocolTimeoutMs: 30_000,
        puppeteer: {
          args: ['--lang=de', '--disable-gpu', '--proxy-server=http://p:1'],
          slowMo: 5,
          userDataDir: '/elsewhere',
          protocolTimeout: 90_000,
        },
      },
      '/c',
      true,
    );
    const args = merged.options.args as string[];
    expect(args.filter((a) => a === '--disable-gpu')).to.have.length(1);
    expect(args).to.include.members(['--lang=de', '--proxy-server=http://p:1', '--disable-quic']);
    expect(merged.options).to.include({ headless: false, slowMo: 5, protocolTimeout: 90_000 });
    expect(merged.options).not.to.have.property('userDataDir');
    expect(merged.ignored).to.deep.equal(['userDataDir']);
  });

  it('mergeArgs lets a later flag of the same name win', () => {
    expect(mergeArgs(['--a=1', '--b'], ['--a=2'])).to.deep.equal(['--b', '--a=2']);
  });
});

describe('wwebjs mapping', () => {
  it('maps every whatsapp-web.js disconnect reason', () => {
    const table: Record<string, string> = {
      UNPAIRED: 'session_expired',
      UNPAIRED_IDLE: 'session_expired',
      LOGOUT: 'logout',
      CONFLICT: 'conflict',
      TIMEOUT: 'connection_lost',
      TOS_BLOCK: 'banned',
      SMB_TOS_BLOCK: 'banned',
      'Max qrcode retries reached': 'qr_timeout',
      PROXYBLOCK: 'connection_lost',
      DEPRECATED_VERSION: 'connection_lost',
    };
    for (const [from, to] of Object.entries(table))
      expect(mapDisconnectReason(from), from).to.equal(to);
    expect(mapDisconnectReason(undefined)).to.equal('connection_lost');
  });

  it('classifies start failures', () => {
    expect(
      classifyStartFailure(new Error('net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/')),
    ).to.equal('connection_lost');
    expect(classifyStartFailure('auth timeout')).to.equal('connection_lost');
    expect(classifyStartFailure(new Error('Failed to launch the browser process!'))).to.equal(
      'browser_crashed',
    );
    expect(
      classifyStartFailure(new Error('Protocol error (Page.navigate): Target closed')),
    ).to.equal('browser_crashed');
  });

  it('maps send errors to codes, keeping the cause', () => {
    const missing = new Error('Evaluation failed: Error: wid error: invalid wid');
    const mapped = mapSendError(missing, 'x@c.us');
    expect(mapped.code).to.equal('CHAT_NOT_FOUND');
    expect(mapped.cause).to.equal(missing);
    expect(
      mapSendError(new Error('Evaluation failed: Error: not-authorized'), 'g@g.us').code,
    ).to.equal('PERMISSION_DENIED');
    const other = new Error('Evaluation failed: TypeError: something odd');
    const engineError = mapSendError(other, 'x@c.us');
    expect(engineError.code).to.equal('ENGINE_ERROR');
    expect(engineError.cause).to.equal(other);
  });

  it('acks outside -1..4 become pending', () => {
    expect([-1, 0, 1, 2, 3, 4].map(toAck)).to.deep.equal([-1, 0, 1, 2, 3, 4]);
    expect(toAck(7)).to.equal(0);
    expect(toAck('3')).to.equal(0);
  });

  it('turns a group media message into plain data (author, quote, media info), nothing else', () => {
    const message = {
      id: {
        fromMe: false,
        remote: 'g1@g.us',
        id: 'ABC',
        _serialized: 'false_g1@g.us_ABC_15550001111@c.us',
      },
      body: 'caption',
      type: 'image',
      timestamp: 1_700_000_000,
      from: 'g1@g.us',
      to: '15550000001@c.us',
      author: '15550001111@c.us',
      ack: 1,
      hasMedia: true,
      fromMe: false,
      hasQuotedMsg: true,
      broadcast: false,
      isForwarded: true,
      // whatsapp-web.js passes mentionedJidList through: ids as strings, or wids from the page
      mentionedIds: ['15550000001@c.us', { server: 'lid', user: '1234', _serialized: '1234@lid' }],
      client: { secret: 'the client object' },
      forward: () => Promise.resolve(),
      downloadMedia: () => Promise.resolve(undefined),
      _data: {
        notifyName: 'Alice',
        mimetype: 'image/jpeg',
        filename: 'a.jpg',
        size: 123,
        quotedStanzaID: 'QQQ',
        quotedParticipant: '15550000001@c.us',
      },
    } as unknown as MessageLike;
    const data = toMessageData(message, '15550000001@c.us');
    expect(data).to.deep.equal({
      id: 'false_g1@g.us_ABC_15550001111@c.us',
      body: 'caption',
      from: 'g1@g.us',
      to: '15550000001@c.us',
      chatId: 'g1@g.us',
      timestamp: 1_700_000_000,
      hasMedia: true,
      isGroup: true,
      broadcast: false,
      hasQuotedMsg: true,
      fromMe: false,
      type: 'image',
      ack: 1,
      author: '15550001111@c.us',
      isForwarded: true,
      notifyName: 'Alice',
      quotedMessageId: 'true_g1@g.us_QQQ_15550000001@c.us',
      mentionedIds: ['15550000001@c.us', '1234@lid'],
      media: { mimetype: 'image/jpeg', filename: 'a.jpg', size: 123 },
      sender: { id: '15550001111@c.us', pushname: 'Alice' },
      isChannel: false,
      isStatus: false,
    });
    expect(JSON.parse(JSON.stringify(data))).to.deep.equal(data);
  });
});

describe('RemoteAuth store adapter', () => {
  let dir: string;
  let store: LocalSessionStore;
  let dataPath: string;
  let cwd: string;
  const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('profile bytes')]);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-remote-auth-'));
    store = new LocalSessionStore(path.join(dir, 'store'));
    dataPath = path.join(dir, 'work');
    cwd = path.join(dir, 'cwd');
    await store.workDir('bot');
    await import('node:fs/promises').then((fs) => Promise.all([fs.mkdir(dataPath), fs.mkdir(cwd)]));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const adapter = (mayDelete = () => false, mayWrite = () => true) =>
    new RemoteAuthStoreAdapter({
      store,
      clientName: 'bot',
      dataPath,
      logger,
      mayDelete,
      mayWrite,
      cwd,
    });

  it('saves the zip RemoteAuth wrote into dataPath when given the bare session name (1.34)', async () => {
    await writeFile(path.join(dataPath, 'RemoteAuth-bot.zip'), ZIP);
    const a = adapter();
    expect(await a.sessionExists({ session: 'RemoteAuth-bot' })).to.equal(false);
    await a.save({ session: 'RemoteAuth-bot' });
    expect(await store.read('bot')).to.deep.equal(ZIP);
    expect(await a.sessionExists({ session: 'RemoteAuth-bot' })).to.equal(true);
  });

  it('saves when given a path inside dataPath (older releases), absolute or relative', async () => {
    await writeFile(path.join(dataPath, 'RemoteAuth-bot.zip'), ZIP);
    await adapter().save({ session: path.join(dataPath, 'RemoteAuth-bot') });
    expect(await store.read('bot')).to.deep.equal(ZIP);
    await store.delete('bot');
    await adapter().save({ session: path.relative(cwd, path.join(dataPath, 'RemoteAuth-bot')) });
    expect(await store.read('bot')).to.deep.equal(ZIP);
  });

  it('finds a zip written relative to the working directory', async () => {
    await writeFile(path.join(cwd, 'RemoteAuth-bot.zip'), ZIP);
    await adapter().save({ session: 'RemoteAuth-bot' });
    expect(await store.read('bot')).to.deep.equal(ZIP);
  });

  it('never replaces a good backup with a missing or broken zip, and never throws', async () => {
    await store.write('bot', ZIP);
    await adapter().save({ session: 'RemoteAuth-bot' }); // no zip at all
    await writeFile(path.join(dataPath, 'RemoteAuth-bot.zip'), Buffer.from('not a zip'));
    await adapter().save({ session: 'RemoteAuth-bot' });
    await writeFile(path.join(dataPath, 'RemoteAuth-bot.zip'), Buffer.alloc(0));
    await adapter().save({ session: 'RemoteAuth-bot' });
    expect(await store.read('bot')).to.deep.equal(ZIP);
  });

  it('skips backups once the session is logged out', async () => {
    await writeFile(path.join(dataPath, 'RemoteAuth-bot.zip'), ZIP);
    await adapter(
      () => true,
      () => false,
    ).save({ session: 'RemoteAuth-bot' });
    expect(await store.read('bot')).to.equal(null);
  });

  it('extracts the saved zip to the path RemoteAuth gives', async () => {
    await store.write('bot', ZIP);
    const target = path.join(dataPath, 'RemoteAuth-bot.zip');
    await adapter().extract({ session: 'RemoteAuth-bot', path: target });
    expect(await readFile(target)).to.deep.equal(ZIP);
  });

  it('deletes only when allowed (logout / session_expired), keeps the backup otherwise', async () => {
    await store.write('bot', ZIP);
    await adapter(() => false).delete({ session: 'RemoteAuth-bot' });
    expect(await store.read('bot')).to.deep.equal(ZIP);
    await adapter(() => true).delete({ session: 'RemoteAuth-bot' });
    expect(await store.read('bot')).to.equal(null);
  });
});
