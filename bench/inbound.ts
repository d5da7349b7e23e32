/**
 * Inbound benchmark: messages per second from a simulated phone through the simulator engine and
 * the client's events (normalisation, Message objects, the plugin pipeline) to a handler, against
 * the bare figure: the same simulator messages taken straight off the engine's own EventEmitter,
 * in the same run. Target: ≥ 30% of the bare figure and ≥ 50,000 msg/s.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createSdk, type Sdk } from '../src/index.js';
import { SimulatorNetwork } from '../src/entries/simulator.js';
import { LocalSessionStore } from '../src/auth/local-store.js';

export const INBOUND_MESSAGES = 200_000;
const BOT = '15550000001';
const silent = pino({ level: 'silent' });

function rate(count: number, startedAt: bigint): number {
  return Math.round(count / (Number(process.hrtime.bigint() - startedAt) / 1e9));
}

/** The bare figure: a linked simulator engine, its `message` events counted by a plain listener. */
export async function bareEngineRate(count = INBOUND_MESSAGES): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-'));
  const network = new SimulatorNetwork({ config: {}, logger: silent });
  const engine = network.engineFactory()({
    clientName: 'bare',
    store: new LocalSessionStore(dir),
    logger: silent,
  });
  try {
    const ready = new Promise<void>((resolve) => engine.on('ready', resolve));
    engine.on('qr', (qr) => network.scan(qr, { phone: BOT }));
    await engine.start();
    await ready;
    let seen = 0;
    engine.on('message', (m) => {
      if (m.body) seen++;
    });
    return await pushFrom(network, count, () => seen);
  } finally {
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A linked simulator SDK for inbound benchmarks; `sdk.stop()` and `cleanup()` when done. */
export async function linkedSimulator(): Promise<{ sdk: Sdk; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-'));
  const sdk = createSdk(
    {
      engine: { type: 'simulator' },
      auth: { type: 'local', dataPath: dir },
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
      clients: ['bench'],
    },
    { logger: pino({ level: 'silent' }) },
  );
  sdk.onClient((client) => client.on('qr', (qr) => sdk.simulator.scan(qr, { phone: BOT })));
  return { sdk, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Sends `count` texts from a phone to the bot and resolves when `received()` reached `count`. */
export function pushInbound(sdk: Sdk, count: number, received: () => number): Promise<number> {
  return pushFrom(sdk.simulator, count, received);
}

async function pushFrom(
  network: SimulatorNetwork,
  count: number,
  received: () => number,
): Promise<number> {
  const phone = network.phone('15550001111');
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) void phone.send(`${BOT}@c.us`, 'hello');
  while (received() < count) await new Promise((resolve) => setImmediate(resolve));
  return rate(count, started);
}

export async function benchInbound(): Promise<Record<string, number | string>> {
  const bare = await bareEngineRate();
  const { sdk, cleanup } = await linkedSimulator();
  try {
    await sdk.start();
    const client = sdk.client('bench');
    await client.waitUntilReady({ timeoutMs: 10_000 });
    let seen = 0;
    client.on('message', (m) => {
      if (m.body) seen++;
    });
    const wakit = await pushInbound(sdk, INBOUND_MESSAGES, () => seen);
    return {
      'bare: simulator engine events (msg/s)': bare,
      'simulator → client.on(message) (msg/s)': wakit,
      'ratio to bare': `${((wakit / bare) * 100).toFixed(1)}% (target ≥ 30%)`,
      'absolute target ≥ 50,000 msg/s': wakit >= 50_000 ? 'met' : 'MISSED',
    };
  } finally {
    await sdk.stop();
    await cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchInbound());
}
