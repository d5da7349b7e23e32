/**
 * Two wakit deployments (two SDKs, each with its own forwarder) bridging the same two groups on one
 * simulator network: without a guard across processes, one human message becomes an endless stream.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import forwarder from '../../plugins/forwarder/index.js';
import { createSdk, type Sdk } from '../../src/index.js';
import { SimulatorNetwork } from '../../src/engines/simulator/index.js';
import { tempDir } from '../helpers/sdk-fixtures.js';
import { eventually, settle } from './plugin-helpers.js';

const BOT_A = '15550000011';
const BOT_B = '15550000022';
const HUMAN = '15550003333';
const WATCHER = '15550004444';
const G1 = '120363000000000101@g.us';
const G2 = '120363000000000202@g.us';

interface Deployment {
  sdk: Sdk;
  logs: Record<string, unknown>[];
}

describe('forwarder: no loops across deployments', () => {
  let network: SimulatorNetwork;
  let deployments: Deployment[];
  let cleanups: (() => Promise<void>)[];

  beforeEach(() => {
    network = new SimulatorNetwork({
      config: { ackDelayMs: 5 },
      logger: pino({ level: 'silent' }),
    });
    deployments = [];
    cleanups = [];
    for (const id of [G1, G2]) {
      network.group({ id, name: id, members: [BOT_A, BOT_B, HUMAN, WATCHER] });
    }
  });

  afterEach(async () => {
    for (const { sdk } of deployments) await sdk.stop({ drainTimeoutMs: 500 });
    for (const cleanup of cleanups) await cleanup();
  });

  /** One deployment: its own SDK and forwarder, a client linked as `phone` on the shared network. */
  async function deploy(name: string, phone: string, options: unknown): Promise<Deployment> {
    const { dir, cleanup } = await tempDir('wakit-fwd-');
    cleanups.push(cleanup);
    const logs: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const sdk = createSdk(
      {
        engine: { type: 'simulator', ackDelayMs: 5 },
        auth: { type: 'local', dataPath: dir },
        queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 },
      },
      { logger: pino({ level: 'warn' }, sink), engineFactory: network.engineFactory() },
    );
    sdk.use(forwarder, options);
    await sdk.start();
    const client = sdk.createClient({ name });
    client.on('qr', (qr) => network.scan(qr, { phone }));
    await client.initialize();
    await client.waitUntilReady({ timeoutMs: 5_000 });
    const deployment = { sdk, logs };
    deployments.push(deployment);
    return deployment;
  }

  const seen = (chatId: string) =>
    network.phone(WATCHER).inbox.filter((m) => m.chatId === chatId && m.author !== `${HUMAN}@c.us`);

  /** A: G1 → G2, B: G2 → G1, both in `mode`. */
  async function bridge(mode: 'forward' | 'copy', extra: Record<string, unknown> = {}) {
    const a = await deploy('bot-a', BOT_A, {
      routes: [{ from: G1, to: [G2], mode, ...extra }],
    });
    const b = await deploy('bot-b', BOT_B, {
      routes: [{ from: G2, to: [G1], mode, ...extra }],
    });
    return { a, b };
  }

  it('forward mode: a forwarded message is not forwarded again', async () => {
    await bridge('forward');
    await network.phone(HUMAN).send(G1, 'hello from G1');
    await eventually(() => seen(G2).length > 0);
    await settle(300);
    expect(seen(G2).map((m) => [m.author, m.body, m.isForwarded])).to.deep.equal([
      [`${BOT_A}@c.us`, 'hello from G1', true],
    ]);
    expect(seen(G1)).to.deep.equal([]);
  });

  it('copy mode: a copy carries a marker and is not copied again', async () => {
    await bridge('copy', { prefix: '[{{name}}] ' });
    await network.phone(HUMAN).send(G1, 'hello');
    await eventually(() => seen(G2).length > 0);
    await settle(300);
    expect(seen(G2)).to.have.length(1);
    expect(seen(G2)[0]?.isForwarded).to.equal(false);
    // the marker is invisible: the visible text is the prefix and the body
    expect(seen(G2)[0]?.body.replace(/[\u200b-\u200f\u2060-\u2064]/g, '')).to.match(
      new RegExp(`^\\[\\+?${HUMAN}\\] hello$`),
    );
    expect(seen(G1)).to.deep.equal([]);
  });

  it('routing forwarded messages on purpose is bounded by the hop limit', async () => {
    await bridge('copy', { forwarded: 'route', maxHops: 2 });
    await network.phone(HUMAN).send(G1, 'bounce');
    await eventually(() => seen(G1).length > 0);
    await settle(300);
    // hop 1: A copies into G2; hop 2: B copies back into G1; A stops there
    expect(seen(G2)).to.have.length(1);
    expect(seen(G1)).to.have.length(1);
  });

  it('caps each route: messages over the rate are dropped with a warning', async () => {
    const { a } = await bridge('copy', {
      forwarded: 'route',
      maxHops: 10,
      rateLimit: { max: 3, windowMs: 60_000 },
    });
    const human = network.phone(HUMAN);
    for (let i = 1; i <= 5; i++) await human.send(G1, `burst ${i}`);
    await eventually(() => seen(G2).length >= 3);
    await settle(300);
    // A routed 3 of the 5 human messages (and B, capped too, at most 3 back)
    expect(seen(G2).length).to.equal(3);
    expect(seen(G1).length).to.be.at.most(3);
    const warnings = a.logs.filter((l) => /rate/.test(String(l.msg)));
    expect(warnings.length).to.be.at.least(1);
  });
});
