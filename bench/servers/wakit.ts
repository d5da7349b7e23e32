/**
 * The wakit server of the REST bench (bench/rest.ts), in its own process, set up the way
 * `wakit start` runs a bot: `createSdk(config)` with the built-in `rest` plugin from the config,
 * `sdk.start()`, one simulator client linked by itself. Pacing is off (queue minGapMs, jitterMs,
 * perChatGapMs 0); everything else is the default configuration (so logs are at `info`: one line
 * per request, written to this process's stdout, which the bench discards).
 *
 *   node --import tsx bench/servers/wakit.ts <port>
 *
 * BENCH_WAKIT_CONFIG: JSON deep-merged over that configuration, to measure variants, e.g.
 * `{"queue":{"maxSize":100000}}` (or, once the outbox exists, its memory vs SQLite store).
 * The SDK is the built package (`dist/`, what `import 'wakitjs'` and `wakit start` run; the bench
 * builds it first), the TypeScript sources through tsx with BENCH_WAKIT_FROM=src, or another
 * checkout's build with BENCH_WAKIT_DIST=<its dist/index.js> (an A/B against an older commit).
 * Sends the IPC message `{ listening: url, token }` when READY; SIGTERM stops it cleanly
 * (so `node --cpu-prof` writes its profile).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Wakit from '../../src/index.js';

export const BENCH_TOKEN = 'bench-token-0123456789abcdef0123456789';
export const BENCH_CONTACT = '15550001111';
const BOT_PHONE = '15550000001';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `over` merged into `base`: objects recursively, anything else replaced. */
export function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = isObject(value) && isObject(out[key]) ? deepMerge(out[key], value) : value;
  }
  return out;
}

export function benchConfig(port: number, dataPath: string, overrides: Json = {}): Json {
  const base: Json = {
    engine: { type: 'simulator', autoScanMs: 0, autoScanPhone: BOT_PHONE },
    auth: { type: 'local', dataPath },
    clients: ['bot'],
    queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0 },
    // the benchmark measures the request path, not the per-token rate limit
    plugins: { rest: { port, tokens: [{ token: BENCH_TOKEN, clients: ['*'] }], rateLimit: false } },
  };
  return deepMerge(base, overrides);
}

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: wakit.ts <port>');
  const overrides = JSON.parse(process.env.BENCH_WAKIT_CONFIG ?? '{}') as Json;
  const from = process.env.BENCH_WAKIT_DIST
    ? pathToFileURL(path.resolve(process.env.BENCH_WAKIT_DIST)).href
    : process.env.BENCH_WAKIT_FROM === 'src'
      ? '../../src/index.js'
      : '../../dist/index.js';
  const { createSdk } = (await import(from)) as typeof Wakit;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-server-'));
  const sdk = createSdk(benchConfig(port, dir, overrides) as Wakit.WakitConfigInput);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await sdk.stop({ drainTimeoutMs: 1_000 }).catch((error: unknown) => console.error(error));
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  await sdk.start();
  // the simulator is there once start() began (it is loaded on demand: docs/simulator.md)
  sdk.simulator.phone(BENCH_CONTACT);
  await sdk.client('bot').waitUntilReady({ timeoutMs: 30_000 });
  process.send?.({ listening: `http://127.0.0.1:${port}`, token: BENCH_TOKEN });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
