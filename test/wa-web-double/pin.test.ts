/**
 * The WhatsApp Web pin on the real whatsapp-web.js 1.34.7 in real Chromium, through the library's
 * own web caches:
 * - the remote cache asks an archive on loopback, a stand-in for wppconnect's wa-version that, like
 *   it, names 2.3000 builds `<version>-alpha.html` (`engine.webVersionCache: { type: 'remote',
 *   url }`);
 * - when the archive misses, RemoteWebCache is not strict and the library loads the live page
 *   from the network: "the network" is an HTTPS server on loopback that Chromium reaches for
 *   web.whatsapp.com (`--host-resolver-rules`), serving another build;
 * - a service worker serving another build is a pinned file whose page reports another
 *   `Debug.VERSION`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import type { RestServer } from '../../plugins/rest/server.js';
import type { EngineHealth } from '../../src/engines/health.js';
import { expectCode, startAndLink } from '../engines/engine-contract.js';
import { MEDIA_ID_CLOBBER_BUILD, NEWEST_BUILD } from './builds.js';
import { DoubleHarness } from './harness.js';
import { buildPage } from './page-builder.js';
import { restOnDouble } from './rest-on-double.js';

const PINNED = NEWEST_BUILD;
/** What "WhatsApp" serves live today: another build than the pin. */
const LIVE = MEDIA_ID_CLOBBER_BUILD;

interface Listening {
  server: Server;
  port: number;
  /** Paths asked for, in order. */
  asked: string[];
}

async function listen(server: Server, asked: string[]): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, asked };
}

/** The archive: `html/<file>.html` for the files it has, 404 for the rest. */
function archiveServer(files: Record<string, string>): Promise<Listening> {
  const asked: string[] = [];
  const server = createHttpServer((req, res) => {
    asked.push(req.url ?? '');
    const name = /^\/html\/(.+)\.html$/.exec(req.url ?? '')?.[1];
    const body = name === undefined ? undefined : files[name];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html' });
    res.end(body ?? 'Not Found');
  });
  return listen(server, asked);
}

/** "Live WhatsApp Web": HTTPS with a throwaway self-signed certificate, serving `page`. */
async function liveServer(dir: string, page: string): Promise<Listening> {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
      ...['-keyout', key, '-out', cert, '-subj', '/CN=web.whatsapp.com'],
    ],
    { stdio: 'ignore' },
  );
  const asked: string[] = [];
  const server = createHttpsServer(
    { key: await readFile(key), cert: await readFile(cert) },
    (req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page);
    },
  );
  return listen(server, asked);
}

const close = (l: Listening | undefined) =>
  new Promise<void>((resolve) => (l ? l.server.close(() => resolve()) : resolve()));

describe('the WhatsApp Web pin on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(90_000);
  let dir: string;
  let live: Listening;
  let archive: Listening | undefined;
  let h: DoubleHarness | undefined;
  let server: RestServer | undefined;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-pin-'));
    live = await liveServer(dir, buildPage(LIVE));
  });
  after(async () => {
    await close(live);
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await server?.close();
    await h?.cleanup();
    await close(archive);
    server = h = archive = undefined;
  });

  /** A harness pinned to PINNED through the archive on loopback; the live page is LIVE. */
  async function pinnedThroughArchive(engine: Record<string, unknown> = {}) {
    h = await DoubleHarness.create({
      build: PINNED,
      engine: {
        webVersion: PINNED.version,
        webVersionCache: {
          type: 'remote',
          url: `http://127.0.0.1:${archive!.port}/html/{version}.html`,
        },
        puppeteer: {
          args: [
            `--host-resolver-rules=MAP web.whatsapp.com 127.0.0.1:${live.port}`,
            '--ignore-certificate-errors',
          ],
        },
        ...engine,
      },
    });
    return h;
  }

  /** An SDK client on the harness, linked and READY, with its REST server and events. */
  async function readyClient(harness: DoubleHarness) {
    const sdk = harness.sdk({ clients: ['bot'] });
    const client = sdk.createClient({ name: 'bot' });
    const events: EngineHealth[] = [];
    client.on('engine.health', (health) => events.push(health));
    let call: Awaited<ReturnType<typeof restOnDouble>>['call'];
    ({ server, call } = await restOnDouble(sdk));
    const qr = new Promise<string>((resolve) => client.once('qr', resolve));
    await client.initialize();
    const ready = client.waitUntilReady({ timeoutMs: 20_000 });
    // a client that fails before its QR (a strict pin refused) fails here, with its error
    await harness.link(await Promise.race([qr, ready.then(() => '')]));
    await ready;
    const health = (await client.checkHealth())!;
    return { client, events, call, health };
  }

  it('the archive has the pinned build (as <version>-alpha): it runs, the pin holds, strict lets it run', async () => {
    archive = await archiveServer({ [`${PINNED.version}-alpha`]: buildPage(PINNED) });
    const harness = await pinnedThroughArchive({ webVersionStrict: true });
    const { client, call, health } = await readyClient(harness);

    expect(archive.asked).to.deep.equal([`/html/${PINNED.version}-alpha.html`]);
    expect(live.asked, 'the live page was not loaded').to.deep.equal([]);
    const held = { pinned: PINNED.version, running: PINNED.version, status: 'held' };
    expect(health.pin).to.deep.equal(held);
    expect(client.info().health?.pin).to.deep.equal(held);
    expect((await call('GET', '/api/v1/client/info')).json?.health).to.deep.include({ pin: held });
    const readyz = await call('GET', '/readyz', undefined, { authorization: '' });
    expect(readyz.json).to.deep.equal({ status: 'ready', reasons: [] });
    expect((await call('GET', '/metrics')).text).to.include(
      `wakit_engine_pin_mismatch{client="bot",pinned="${PINNED.version}",running="${PINNED.version}"} 0`,
    );
  });

  it('the archive misses: the library falls back to the live page → the pin does not hold (info, event, /readyz, metrics)', async () => {
    archive = await archiveServer({});
    const harness = await pinnedThroughArchive();
    const { client, events, call, health } = await readyClient(harness);

    expect(archive.asked).to.deep.equal([`/html/${PINNED.version}-alpha.html`]);
    expect(live.asked, 'the live page was loaded from "the network"').to.include('/');
    const mismatch = { pinned: PINNED.version, running: LIVE.version, status: 'mismatch' };
    expect(health).to.deep.include({ build: LIVE.version, pin: mismatch });
    expect(client.info().health?.pin).to.deep.equal(mismatch);
    expect(events.at(-1)?.pin).to.deep.equal(mismatch);
    expect((await call('GET', '/api/v1/client/info')).json?.health).to.deep.include({
      pin: mismatch,
    });
    const readyz = await call('GET', '/readyz', undefined, { authorization: '' });
    expect(readyz.status).to.equal(200);
    expect(readyz.json).to.deep.equal({
      status: 'degraded',
      reasons: ['1 client(s) run a WhatsApp Web build other than their pin'],
    });
    expect((await call('GET', '/metrics')).text).to.include(
      `wakit_engine_pin_mismatch{client="bot",pinned="${PINNED.version}",running="${LIVE.version}"} 1`,
    );
  });

  it('the archive misses with engine.webVersionStrict: FAILED with WEB_VERSION_MISMATCH before any QR', async () => {
    archive = await archiveServer({});
    const harness = await pinnedThroughArchive({ webVersionStrict: true });
    const sdk = harness.sdk({ clients: ['bot'], reconnect: { maxAttempts: 3 } });
    const client = sdk.createClient({ name: 'bot' });
    const qrs: string[] = [];
    const states: string[] = [];
    client.on('qr', (qr) => qrs.push(qr));
    client.on('state', ({ to }) => states.push(to));
    await client.initialize();
    const error = await expectCode(
      client.waitUntilReady({ timeoutMs: 30_000 }),
      'WEB_VERSION_MISMATCH',
    );
    expect(error.details).to.deep.include({ pinned: PINNED.version, running: LIVE.version });
    expect(client.state).to.equal('FAILED');
    expect(states).to.deep.equal(['STARTING', 'FAILED']); // no reconnect: retrying cannot cure it
    expect(qrs, 'no QR shown for a build it refuses').to.deep.equal([]);
    expect(harness.clients).to.have.length(1);
  });

  it('a service worker serves another build under the pin: reported, and a warning logged', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    h = await DoubleHarness.create({ build: PINNED, logger });
    // the pinned file now holds what the service worker hands out: another build
    await writeFile(path.join(h.dir, 'builds', `${PINNED.version}.html`), buildPage(LIVE));
    const engine = h.engine();
    await startAndLink(h.contractView(engine));
    const probe = await engine.ops.account.checkHealth();
    expect(probe.pin).to.deep.equal({
      pinned: PINNED.version,
      running: LIVE.version,
      status: 'mismatch',
    });
    const warning = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warning.find((w) => w.running === LIVE.version)).to.deep.include({
      level: 40,
      pinned: PINNED.version,
      running: LIVE.version,
    });

    // the same with engine.webVersionStrict: the attempt fails for good
    await engine.stop();
    const strict = h.engine({ webVersionStrict: true });
    const failed = new Promise<{ code: string }>((resolve) => strict.on('failed', resolve));
    await strict.start();
    expect((await failed).code).to.equal('WEB_VERSION_MISMATCH');
  });
});
