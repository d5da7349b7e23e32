/**
 * Inbound benchmark: messages per second from a simulated phone through the simulator engine and
 * the client's events to a handler, against a bare EventEmitter handing the same objects to a
 * handler, in the same run. Target: ≥ 30% of the bare figure and ≥ 50,000 msg/s.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createSdk, type Sdk } from '../src/index.js';

export const INBOUND_MESSAGES = 200_000;
const BOT = '15550000001';

function rate(count: number, startedAt: bigint): number {
  return Math.round(count / (Number(process.hrtime.bigint() - startedAt) / 1e9));
}

/** The bare figure: an EventEmitter emitting message-shaped objects to one handler. */
export function bareEmitterRate(count = INBOUND_MESSAGES): number {
  const emitter = new EventEmitter();
  let seen = 0;
  emitter.on('message', (m: { body: string }) => {
    if (m.body) seen++;
  });
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    emitter.emit('message', { id: `false_1555_${i}`, body: 'hello', from: '15550001111@c.us', timestamp: i, fromMe: false });
  }
  if (seen !== count) throw new Error(`bare emitter lost messages: ${seen}/${count}`);
  return rate(count, started);
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
export async function pushInbound(sdk: Sdk, count: number, received: () => number): Promise<number> {
  const phone = sdk.simulator.phone('15550001111');
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) void phone.send(`${BOT}@c.us`, 'hello');
  while (received() < count) await new Promise((resolve) => setImmediate(resolve));
  return rate(count, started);
}

export async function benchInbound(): Promise<Record<string, number | string>> {
  const bare = bareEmitterRate();
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
      'bare EventEmitter (msg/s)': bare,
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
