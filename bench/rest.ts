/**
 * REST benchmark (issue 5): `POST /api/v1/messages` (text, bearer token, validation, enqueue on the
 * simulator with pacing off) with autocannon at 50 connections for 10 s, against a bare Koa app
 * with the same body parser answering a JSON POST, both in the same run. Reports requests per
 * second, p50/p99 latency and the ratio (target: ≥ 60 % of bare Koa, p99 < 25 ms).
 * Standalone: `npx tsx bench/rest.ts` (BENCH_DURATION=seconds to shorten it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { pino } from 'pino';
import { createSdk } from '../src/index.js';
import { createRestServer } from '../plugins/rest/server.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const TOKEN = 'bench-token-0123456789abcdef0123456789';
const CONTACT = '15550001111';
const BODY = JSON.stringify({ chatId: CONTACT, content: 'Hello from the benchmark' });

function load(
  url: string,
  headers: Record<string, string>,
  duration: number,
): Promise<AutocannonResult> {
  return autocannon({
    url,
    method: 'POST',
    connections: 50,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
  });
}

async function bareKoa(): Promise<{ url: string; server: Server }> {
  const app = new Koa();
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: 1024 * 1024 }));
  app.use((ctx) => {
    const body = ctx.request.body as { chatId?: unknown } | undefined;
    ctx.status = 202;
    ctx.body = { id: 'x', status: 'queued', chatId: body?.chatId ?? null };
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/messages`,
    server,
  };
}

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

export async function benchRest(): Promise<Record<string, number | string>> {
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-bench-rest-'));
  const logger = pino({ level: 'silent' });
  const sdk = createSdk(
    {
      engine: { type: 'simulator', ackDelayMs: 50 },
      auth: { type: 'local', dataPath: dir },
      clients: ['bot'],
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, maxSize: 10_000_000, trackLimit: 10_000 },
    },
    { logger },
  );
  const client = sdk.createClient({ name: 'bot' });
  sdk.simulator.phone(CONTACT);
  client.on('qr', (qr) => sdk.simulator.scan(qr, { phone: '15550000001' }));
  const rest = await createRestServer({
    sdk,
    logger,
    options: { port: 0, tokens: [{ token: TOKEN, clients: ['*'] }] },
  });
  await rest.listen();
  await client.initialize();
  await client.waitUntilReady({ timeoutMs: 10_000 });
  const bare = await bareKoa();
  try {
    // Warm both up (JIT), then measure.
    await load(bare.url, {}, 1);
    await load(`${rest.url}/api/v1/messages`, { authorization: `Bearer ${TOKEN}` }, 1);
    const base = await load(bare.url, {}, duration);
    const api = await load(
      `${rest.url}/api/v1/messages`,
      { authorization: `Bearer ${TOKEN}` },
      duration,
    );
    const failures = api.non2xx + api.errors + api.timeouts;
    const ratio = api.requests.average / base.requests.average;
    return {
      'bare Koa rps': round(base.requests.average),
      'bare Koa p50 ms': base.latency.p50,
      'bare Koa p99 ms': base.latency.p99,
      'REST rps': round(api.requests.average),
      'REST p50 ms': api.latency.p50,
      'REST p99 ms': api.latency.p99,
      'REST failed requests': failures,
      'ratio REST / bare Koa': `${round(ratio * 100)} % (target ≥ 60 %)`,
      'p99 target < 25 ms': api.latency.p99 < 25 ? 'met' : 'missed',
      'sends accepted': api.requests.total,
    };
  } finally {
    await new Promise((resolve) => bare.server.close(resolve));
    await rest.close();
    await sdk.stop({ drainTimeoutMs: 1_000 });
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchRest());
}
