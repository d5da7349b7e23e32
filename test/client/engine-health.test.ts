import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import {
  createSdk,
  isWakitError,
  type BotClient,
  type Sdk,
  type TrackedSend,
  type WakitConfigInput,
} from '../../src/index.js';
// `sdk.simulator` before start (docs/simulator.md)
import '../../src/entries/simulator.js';
import type { EngineHealth } from '../../src/entries/engine.js';

const CONTACT = '15550001111';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('engine health on the simulator (SDK)', () => {
  let dir: string;
  let sdk: Sdk | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-health-'));
  });
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 100 });
    sdk = undefined;
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  async function start(
    engine: Partial<Extract<WakitConfigInput['engine'], { type: 'simulator' }>> = {},
    outbox: 'memory' | 'sqlite' = 'memory',
  ): Promise<{ client: BotClient; events: EngineHealth[] }> {
    sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 5, autoScanMs: 1, ...engine },
        auth: { type: 'local', dataPath: path.join(dir, 'sessions') },
        queue: {
          minGapMs: 0,
          jitterMs: 0,
          perChatGapMs: 0,
          retryBackoffMs: 10,
          persistence: outbox,
        },
      },
      { logger: pino({ level: 'silent' }), baseDir: dir },
    );
    sdk.simulator.phone(CONTACT);
    const client = sdk.createClient({ name: 'bot' });
    const events: EngineHealth[] = [];
    client.on('engine.health', (health) => events.push(health));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    return { client, events };
  }

  const until = async (check: () => boolean, ms = 3_000): Promise<void> => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('reports the build and its capabilities after READY, in info() and as engine.health', async () => {
    const { client, events } = await start({ build: { version: '2.3000.1-sim' } });
    await until(() => events.length > 0);
    const health = client.info().health!;
    expect(health).to.deep.include({
      status: 'ok',
      build: '2.3000.1-sim',
      broken: [],
      library: null,
    });
    expect(Object.keys(health.capabilities)).to.have.members([
      'ids.serialize',
      'send.text',
      'send.media',
      'media.download',
      'contacts.lid',
      'groups.metadata',
      'send.forward',
      'groups.description',
      'events.inbound',
    ]);
    expect(events[0]).to.deep.equal(health);
    // Checking again without a change emits nothing new.
    await client.checkHealth();
    expect(events).to.have.length(1);
  });

  it('holds a send whose capability is broken (ENGINE_INCOMPATIBLE, attempts not burnt) and sends it after the "upgrade"', async () => {
    const { client, events } = await start({ build: { broken: ['send.media'] } });
    await until(() => events.length > 0);
    expect(events[0]).to.deep.include({ status: 'degraded', broken: ['send.media'] });
    const statuses: TrackedSend[] = [];
    client.on('message.status', (record) => statuses.push(record));

    const error = await client
      .sendImageMessage({ to: CONTACT, image: { buffer: PNG, mimetype: 'image/png' } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isWakitError(error, 'ENGINE_INCOMPATIBLE')).to.equal(true);
    if (!isWakitError(error)) throw new Error('unreachable');
    expect(error.status).to.equal(503);
    expect(error.details).to.deep.include({
      capability: 'send.media',
      build: '2.3000.0-simulator',
      held: true,
    });
    expect(error.message).to.match(
      /send\.media.*2\.3000\.0-simulator|2\.3000\.0-simulator.*send\.media/,
    );
    const held = statuses.at(-1)!;
    expect(held).to.deep.include({ status: 'held', attempts: 0 });
    expect(held.error?.code).to.equal('ENGINE_INCOMPATIBLE');
    expect(client.info().queue).to.deep.equal({ pending: 0, held: 1, running: 0 });

    // Text does not need the broken capability: it goes.
    await client.sendTextMessage({ to: CONTACT, text: 'still here' });
    const phone = sdk!.simulator.phone(CONTACT);
    expect(phone.inbox.map((m) => m.type)).to.deep.equal(['chat']);

    // The "upgrade": the build works again; the next check retries what was held.
    sdk!.simulator.build.set({ version: '2.3000.2-sim', broken: [] });
    const after = await client.checkHealth();
    expect(after).to.deep.include({ status: 'ok', build: '2.3000.2-sim' });
    expect(events.at(-1)).to.deep.include({ status: 'ok', build: '2.3000.2-sim' });
    await until(() => statuses.some((s) => s.id === held.id && s.status === 'sent'));
    const image = await phone.waitForMessage((m) => m.type === 'image');
    expect(image.media?.data.equals(PNG)).to.equal(true);
    expect(client.info().queue.held).to.equal(0);
    const sent = statuses.filter((s) => s.id === held.id && s.status === 'sent').at(-1)!;
    expect(sent.attempts).to.equal(1);
  });

  it('a send the engine fails on a build broken since the last check is held after a fresh check; retryHeld sends it', async () => {
    const { client, events } = await start();
    await until(() => events.length > 0);
    sdk!.simulator.build.set({ broken: ['send.media'] }); // no check has seen it yet
    const error = await client
      .sendImageMessage({ to: CONTACT, image: { buffer: PNG, mimetype: 'image/png' } })
      .catch((e: unknown) => e);
    expect(isWakitError(error, 'ENGINE_INCOMPATIBLE')).to.equal(true);
    expect(String((error as Error).cause)).to.match(/Data passed to getter must include an id/);
    expect(client.info().health).to.deep.include({ status: 'degraded', broken: ['send.media'] });
    expect(client.info().queue.held).to.equal(1);

    // Still broken: a retry is held again at once, without burning an attempt.
    expect(await client.retryHeld()).to.equal(1);
    await until(() => client.info().queue.held === 1 && client.info().queue.pending === 0);
    sdk!.simulator.build.set({ broken: [] });
    expect(await client.retryHeld()).to.equal(1);
    const phone = sdk!.simulator.phone(CONTACT);
    await phone.waitForMessage((m) => m.type === 'image');
  });

  it('a held send stays queued in the outbox and is sent after a restart on a repaired build', async () => {
    const first = await start({ build: { broken: ['send.media'] } }, 'sqlite');
    await until(() => first.events.length > 0);
    const statuses: TrackedSend[] = [];
    first.client.on('message.status', (record) => statuses.push(record));
    const error = await first.client
      .sendImageMessage({ to: CONTACT, image: { buffer: PNG, mimetype: 'image/png' } })
      .catch((e: unknown) => e);
    expect(isWakitError(error, 'ENGINE_INCOMPATIBLE')).to.equal(true);
    const trackingId = statuses.at(-1)!.id;
    expect((await sdk!.sends.get(trackingId))?.status).to.equal('held');
    await sdk!.stop({ drainTimeoutMs: 100 });
    sdk = undefined;

    const second = await start({ build: { broken: [] } }, 'sqlite');
    const phone = sdk!.simulator.phone(CONTACT);
    const image = await phone.waitForMessage((m) => m.type === 'image');
    expect(image.media?.data.equals(PNG)).to.equal(true);
    let status: string | undefined;
    await until(() => {
      void sdk!.sends.get(trackingId).then((r) => (status = r?.status));
      return status === 'read';
    });
    expect(second.client.info().queue).to.include({ pending: 0, held: 0 });
  });
});
