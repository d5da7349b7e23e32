/**
 * REST benchmark (issue 8): `POST /api/v1/messages` of the wakit server (the built-in REST plugin,
 * simulator engine, pacing off, otherwise the default configuration) against a bare Koa +
 * @koa/bodyparser JSON POST and a bare Express 5 `express.json()` POST (the stack of the peer
 * gateways). Each server runs in its own child process (bench/servers/), started fresh for every
 * round; autocannon (50 connections) runs here. Rounds are interleaved (wakit, wakit-intake, koa,
 * express, wakit, ...); the table gives medians with their spread (min–max), p99, failed requests
 * and the ratios wakit/koa and wakit/express. Goals: ≥ 60 % of Koa, ≥ 100 % of Express, p99 < 25 ms,
 * 0 failed. `wakit-intake` is the same server with nothing sent during the run (the intake alone;
 * its ratio to Koa has no goal): the difference to `wakit` is the in-process simulated send.
 *
 * Environment: BENCH_ROUNDS (3), BENCH_DURATION seconds per measurement (10), BENCH_WARMUP seconds
 * (2), BENCH_TARGETS (e.g. `wakit`), BENCH_WAKIT_CONFIG (JSON merged into the wakit server's
 * config, see bench/servers/wakit.ts), BENCH_WAKIT_FROM=src (the wakit server runs the
 * TypeScript sources through tsx instead of the package built first), BENCH_CPU_PROF=<dir> (run
 * the wakit server under `node --cpu-prof`, profiles written to <dir>). Standalone:
 * `npx tsx bench/rest.ts`.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, buildPackage, startServer } from './server-process.js';
import { median, round, spread } from './stats.js';
import { BENCH_CONTACT, BENCH_TOKEN } from './servers/wakit.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const BODY = JSON.stringify({ chatId: BENCH_CONTACT, content: 'Hello from the benchmark' });

interface Target {
  name: 'wakit' | 'wakit-intake' | 'koa' | 'express';
  script: string;
  nodeArgs: string[];
  headers: Record<string, string>;
  env?: Record<string, string>;
}

/**
 * The intake alone: the same server with a pacing gap longer than the run, so every request is
 * accepted and journaled (202) but nothing is sent during it. Against `wakit` it shows what the
 * simulated send of every request costs on the same event loop (with whatsapp-web.js that work is
 * mostly Chromium's, in another process).
 */
function intakeConfig(): string {
  const over = JSON.parse(process.env.BENCH_WAKIT_CONFIG ?? '{}') as Record<string, unknown>;
  const queue = {
    ...(over.queue as Record<string, unknown>),
    minGapMs: 3_600_000,
    maxSize: 10_000_000,
  };
  return JSON.stringify({ ...over, queue });
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

function targets(): Target[] {
  const profileDir = process.env.BENCH_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const all: Target[] = [
    {
      name: 'wakit',
      script: path.join(BENCH_DIR, 'servers', 'wakit.ts'),
      nodeArgs: [...profile, '--import', 'tsx'],
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    },
    {
      name: 'wakit-intake',
      script: path.join(BENCH_DIR, 'servers', 'wakit.ts'),
      nodeArgs: ['--import', 'tsx'],
      headers: { authorization: `Bearer ${BENCH_TOKEN}` },
      env: { BENCH_WAKIT_CONFIG: intakeConfig() },
    },
    { name: 'koa', script: path.join(BENCH_DIR, 'servers', 'koa.mjs'), nodeArgs: [], headers: {} },
    {
      name: 'express',
      script: path.join(BENCH_DIR, 'servers', 'express.mjs'),
      nodeArgs: [],
      headers: {},
    },
  ];
  const wanted = (process.env.BENCH_TARGETS ?? '').split(',').filter(Boolean);
  return wanted.length ? all.filter((t) => wanted.includes(t.name)) : all;
}

function load(url: string, headers: Record<string, string>, duration: number) {
  return autocannon({
    url: `${url}/api/v1/messages`,
    method: 'POST',
    connections: 50,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
  });
}

async function measure(target: Target, warmup: number, duration: number): Promise<Sample> {
  const server = await startServer(target.script, {
    nodeArgs: target.nodeArgs,
    ...(target.env ? { env: target.env } : {}),
  });
  try {
    if (warmup > 0) await load(server.url, target.headers, warmup);
    const r = await load(server.url, target.headers, duration);
    return {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
      total: r.requests.total,
    };
  } finally {
    await server.stop();
  }
}

const percent = (value: number) => `${round(value * 100)} %`;

export async function benchRest(): Promise<Record<string, Record<string, string | number>>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const warmup = Number(process.env.BENCH_WARMUP ?? 2);
  const list = targets();
  if (process.env.BENCH_WAKIT_FROM !== 'src' && list.some((t) => t.name.startsWith('wakit'))) {
    buildPackage();
  }
  const samples = new Map<string, Sample[]>(list.map((t) => [t.name, []]));
  for (let i = 1; i <= rounds; i++) {
    for (const target of list) {
      const sample = await measure(target, warmup, duration);
      samples.get(target.name)!.push(sample);
      console.error(
        `round ${i}/${rounds} ${target.name}: ${round(sample.rps)} req/s, p99 ${sample.p99} ms, ` +
          `non-2xx ${sample.non2xx}, errors ${sample.errors}`,
      );
    }
  }
  const table: Record<string, Record<string, string | number>> = {};
  for (const [name, runs] of samples) {
    table[name] = {
      'req/s median (min–max)': spread(runs.map((s) => s.rps)),
      'p50 ms': spread(runs.map((s) => s.p50)),
      'p99 ms median (min–max)': spread(runs.map((s) => s.p99)),
      'non-2xx': runs.reduce((sum, s) => sum + s.non2xx, 0),
      'errors + timeouts': runs.reduce((sum, s) => sum + s.errors, 0),
      requests: runs.reduce((sum, s) => sum + s.total, 0),
    };
  }
  const wakit = samples.get('wakit');
  const ratioRow = (name: string, base: string, goal?: number): void => {
    const mine = samples.get(name);
    const other = samples.get(base);
    if (!mine?.length || !other?.length) return;
    const ratio = median(mine.map((s) => s.rps)) / median(other.map((s) => s.rps));
    const perRound = mine.map((s, i) => s.rps / other[i].rps);
    table[`${name} / ${base}`] = {
      'req/s median (min–max)': `${percent(ratio)} (per round ${percent(Math.min(...perRound))}–${percent(Math.max(...perRound))})`,
      'p50 ms': '',
      'p99 ms median (min–max)': '',
      'non-2xx': '',
      'errors + timeouts': '',
      requests:
        goal === undefined
          ? 'no goal: the intake alone'
          : `goal ≥ ${percent(goal)}: ${ratio >= goal ? 'met' : 'missed'}`,
    };
  };
  ratioRow('wakit', 'koa', 0.6);
  ratioRow('wakit', 'express', 1);
  ratioRow('wakit-intake', 'koa');
  if (wakit?.length) {
    const p99 = median(wakit.map((s) => s.p99));
    const failed = wakit.reduce((sum, s) => sum + s.non2xx + s.errors, 0);
    table['wakit goals'] = {
      'req/s median (min–max)': '',
      'p50 ms': '',
      'p99 ms median (min–max)': `< 25 ms: ${p99 < 25 ? 'met' : 'missed'}`,
      'non-2xx': '',
      'errors + timeouts': '',
      requests: `0 failed: ${failed === 0 ? 'met' : `missed (${failed})`}`,
    };
  }
  return table;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchRest());
}
