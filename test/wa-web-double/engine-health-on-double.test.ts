/**
 * Engine health and ENGINE_INCOMPATIBLE end to end on the real whatsapp-web.js 1.34.7 + the
 * WhatsApp Web double: a build whose media prep path is absent (no compat fix covers it) is
 * reported degraded with its build and the library (SDK info and event, REST info, /readyz,
 * /metrics); a media send is held in the outbox, not failed; the operator's retry holds it again
 * while the build is broken; once the client runs on a new build the send goes out, once.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import type { RestServer } from '../../plugins/rest/server.js';
import type { BotClient } from '../../src/client/bot-client.js';
import type { EngineHealth } from '../../src/engines/health.js';
import { BRIDGE_CHECK_TEXT } from '../../src/engines/wwebjs/inbound-bridge.js';
import { startAndLink } from '../engines/engine-contract.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  DEAD_BRIDGE_BUILD,
  KEY_RENAME_BUILD,
  NEWEST_BUILD,
  NO_MEDIA_PREP_BUILD,
  type DoubleBuild,
} from './builds.js';
import { DoubleHarness } from './harness.js';
import { buildPage } from './page-builder.js';
import { restOnDouble } from './rest-on-double.js';
import { ALICE, BOT } from './world.js';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('engine health and held sends on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(90_000);
  let h: DoubleHarness;
  let server: RestServer;
  let client: BotClient;
  let call: Awaited<ReturnType<typeof restOnDouble>>['call'];

  beforeEach(async () => {
    h = await DoubleHarness.create({ build: NO_MEDIA_PREP_BUILD });
    const sdk = h.sdk({ clients: ['bot'] });
    client = sdk.createClient({ name: 'bot' });
    ({ server, call } = await restOnDouble(sdk));
  });
  afterEach(async () => {
    await server.close();
    await h.cleanup();
  });

  const statusOf = async (location: string) => (await call('GET', location)).json?.status;
  async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const images = async () =>
    (await h.phone<Array<{ type: string }>>('sent')).filter((m) => m.type === 'image');

  it('degraded with build and library → media send held (503 ENGINE_INCOMPATIBLE) → retry while broken holds it again → new build: sent once', async () => {
    const events: EngineHealth[] = [];
    client.on('engine.health', (health) => events.push(health));
    const qr = new Promise<string>((resolve) => client.once('qr', resolve));
    await client.initialize();
    await h.link(await qr);
    await client.waitUntilReady({ timeoutMs: 20_000 });
    await until(() => events.length > 0, 'the engine.health event');

    const degraded = {
      status: 'degraded',
      build: NO_MEDIA_PREP_BUILD.version,
      library: 'whatsapp-web.js 1.34.7',
      broken: ['send.media'],
    };
    expect(events[0]).to.deep.include(degraded);
    expect(events[0].capabilities['send.media']).to.deep.equal({
      ok: false,
      detail: 'the media prep or upload path is missing',
    });
    expect(client.info().health).to.deep.include(degraded);
    expect((await call('GET', '/api/v1/client/info')).json?.health).to.deep.include(degraded);
    const readyz = await call('GET', '/readyz', undefined, { authorization: '' });
    expect(readyz.json).to.deep.include({ status: 'degraded' });
    const metrics = (await call('GET', '/metrics')).text;
    expect(metrics).to.include('wakit_engine_capability{client="bot",capability="send.media"} 0');
    expect(metrics).to.include(
      `wakit_engine_degraded{client="bot",build="${NO_MEDIA_PREP_BUILD.version}",library="whatsapp-web.js 1.34.7"} 1`,
    );

    // What works keeps working; the media send is held, named by capability and build.
    const text = await call(
      'POST',
      '/api/v1/messages',
      { chatId: ALICE.pn, content: 'text ok' },
      { prefer: 'wait=20' },
    );
    expect(text.status, text.text).to.equal(201);
    const sent = await call(
      'POST',
      '/api/v1/messages',
      { chatId: ALICE.pn, content: { type: 'image', data: PNG_BASE64, mimetype: 'image/png' } },
      { prefer: 'wait=10' },
    );
    expect(sent.status, sent.text).to.equal(503);
    expect(sent.json).to.deep.include({ code: 'ENGINE_INCOMPATIBLE' });
    expect(sent.json?.details).to.deep.include({
      capability: 'send.media',
      build: NO_MEDIA_PREP_BUILD.version,
      held: true,
    });
    const location = sent.headers.get('location')!;
    expect(await statusOf(location)).to.equal('held');
    expect(client.info().queue).to.deep.include({ held: 1 });

    // The operator retries too early: still broken, held again, nothing reaches the phone.
    expect((await call('POST', '/api/v1/client/held/retry')).json).to.deep.equal({ retried: 1 });
    await until(async () => (await statusOf(location)) === 'held', 'held again');
    expect(await images()).to.deep.equal([]);

    // The upgrade: the pinned build's file now holds the newest build; the client starts on it.
    const pinned = path.join(h.dir, 'builds', `${NO_MEDIA_PREP_BUILD.version}.html`);
    await writeFile(pinned, buildPage(NEWEST_BUILD));
    await client.stop();
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 20_000 });
    await until(() => client.info().health?.build === NEWEST_BUILD.version, 'the new build');
    // the repaired capability sends what was held; the operator's retry finds nothing left
    await until(
      async () => ['sent', 'delivered', 'read'].includes(String(await statusOf(location))),
      'the held send',
    );
    expect((await call('POST', '/api/v1/client/held/retry')).json).to.deep.equal({ retried: 0 });
    expect(await images()).to.have.length(1);
    expect(client.info().health).to.deep.include({ status: 'ok', broken: [] });
    expect(events.at(-1)).to.deep.include({ status: 'ok', build: NEWEST_BUILD.version });
    // capabilities repaired; the pinned file now holds another build, so the pin does not hold
    // (pin.test.ts): that is the only reason left
    expect((await call('GET', '/readyz', undefined, { authorization: '' })).json).to.deep.equal({
      status: 'degraded',
      reasons: ['1 client(s) run a WhatsApp Web build other than their pin'],
    });
  });
});

describe('health probes by behaviour on whatsapp-web.js 1.34.7 + the WhatsApp Web double', function () {
  this.timeout(90_000);
  let h: DoubleHarness;
  afterEach(async () => {
    await h?.cleanup();
  });

  /** An engine on `build` with these engine config overrides, linked and READY. */
  async function linked(build: DoubleBuild, overrides: Record<string, unknown> = {}) {
    h = await DoubleHarness.create({ build });
    const engine = h.engine(overrides);
    await startAndLink(h.contractView(engine));
    return engine;
  }
  const CHECK_NOW = { inboundCheck: { silenceMs: 1, echoTimeoutMs: 2_000 } };

  it('ids.serialize: an id that reaches Node without _serialized is broken, saying what crossed', async () => {
    const engine = await linked(KEY_RENAME_BUILD, { compat: { disable: ['msg-key-serialized'] } });
    await h.phone('receive', { from: ALICE.pn, body: 'an id to cross' });
    const { capabilities } = await engine.ops.account.checkHealth();
    expect(capabilities['ids.serialize'].ok).to.equal(false);
    expect(capabilities['ids.serialize'].detail).to.match(
      /a message id reaches Node as \{.*"\$1":"false_.*\(no _serialized\)/,
    );
  });

  it('send.forward and groups.description: broken, and why, while their modules do not take the call; ok with the fixes', async () => {
    const disable = ['forward-bundle', 'group-description-options'];
    const broken = await linked(NEWEST_BUILD, { compat: { disable } });
    const before = (await broken.ops.account.checkHealth()).capabilities;
    expect(before['send.forward']).to.deep.equal({
      ok: false,
      detail:
        'WAWebChatForwardMessage is registered but not loaded; compat fix forward-bundle is needed but not installed',
    });
    expect(before['groups.description'].ok).to.equal(false);
    expect(before['groups.description'].detail).to.match(/^setGroupDescription takes one options/);
    await h.cleanup();
    const fixed = await linked(NEWEST_BUILD);
    const after = (await fixed.ops.account.checkHealth()).capabilities;
    expect(after['send.forward']).to.deep.equal({ ok: true });
    expect(after['groups.description']).to.deep.equal({ ok: true });
  });

  it('events.inbound: a live bridge brings the check message back to the engine', async () => {
    const engine = await linked(KEY_RENAME_BUILD, CHECK_NOW);
    const { capabilities } = await engine.ops.account.checkHealth();
    expect(capabilities['events.inbound']).to.deep.equal({
      ok: true,
      detail: 'the check message came back',
    });
    const sent = await h.phone<Array<{ to: string; body: string }>>('sent');
    expect(sent.map((m) => [m.to, m.body])).to.deep.equal([[BOT.pn, BRIDGE_CHECK_TEXT]]);
  });

  it('events.inbound: READY with the event bridge never attached → broken, why, and the page reloaded', async () => {
    const engine = await linked(DEAD_BRIDGE_BUILD, CHECK_NOW);
    const loads = h.requests.length;
    const health = await engine.ops.account.checkHealth();
    expect(health.capabilities['events.inbound'].ok).to.equal(false);
    expect(health.capabilities['events.inbound'].detail).to.match(
      /READY, no message event for \d+ s, and the check message did not come back within 2000 ms: the page's event bridge is not attached/,
    );
    // the page is reloaded: WhatsApp Web is requested again
    await waitUntil(
      () => h.requests.length > loads,
      10_000,
      () => 'a reload',
    );
  });
});
