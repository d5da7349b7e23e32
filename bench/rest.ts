/**
 * REST benchmark (issue 8): `POST /api/v1/messages` of the wakit server (the built-in REST plugin,
 * simulator engine, pacing off, otherwise the default configuration) against a bare Koa +
 * @koa/bodyparser JSON POST and a bare Express 5 `express.json()` POST (the stack of the peer
 * gateways). Each server runs in its own child process (bench/servers/), started fresh for every
 * round; autocannon (50 connections) runs here. Rounds are interleaved (wakit, wakit-intake, koa,
 * express, then the other way round, ...); the table gives medians with their spread (min–max),
 * p99, failed requests, the server process's **CPU time per request** and the ratios wakit/koa
 * and wakit/express.
 * Goals: ≥ 60 % of Koa, ≥ 100 % of Express, p99 < 25 ms, 0 failed. `wakit-intake` is the same
 * server with nothing sent during the run (the intake alone; its ratio to Koa has no goal): the
 * difference to `wakit` is the in-process simulated send.
 *
 * CPU time per request: the server's own `process.cpuUsage()` (user + system, all its threads)
 * from the end of the warm-up until it has gone quiet after the measured load (the sends, acks and
 * journal commits the requests started are counted too), divided by the requests answered. It
 * does not count the time the server waited for a core other processes held, which requests/s
 * does; it still rises on a crowded machine (caches, the scheduler), so builds are compared by the
 * ratio of the two servers of one round (run one after the other), the median over the rounds.
 * A server's own work per unit of time (SQLite group commits, timers) is shared by the requests of
 * that time, so its CPU per request also depends on its request rate: BENCH_RATE=<req/s> offers
 * every server the same rate (below what each serves), for an A/B that does not depend on the load.
 *
 * Environment: BENCH_ROUNDS (3), BENCH_DURATION seconds per measurement (10), BENCH_WARMUP seconds
 * (2), BENCH_RATE (requests/s offered; 0: as many as served), BENCH_TARGETS (e.g.
 * `wakit,wakit-base`), BENCH_WAKIT_CONFIG (JSON merged into the wakit server's config, see
 * bench/servers/wakit.ts), BENCH_WAKIT_FROM=src (the wakit server runs the TypeScript sources
 * through tsx instead of the package built first), BENCH_WAKIT_BASE=<dir> (a checkout of an older
 * commit with its package built: adds `wakit-base` and `wakit-intake-base`, interleaved with the
 * others, for an A/B), BENCH_CPU_PROF=<dir> (a CPU profile of each server's main thread during
 * each measured load, `<dir>/<target>.<round>.cpuprofile`, with the requests it served in
 * `<dir>/requests.json`; read them with bench/profile-summary.ts; the profiler's own cost is in
 * the CPU times of such a run). Standalone: `npx tsx bench/rest.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { BENCH_DIR, buildPackage, startServer, type ServerProcess } from './server-process.js';
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
  name: string;
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
  /** server CPU time (µs) per request answered */
  cpu: number;
  non2xx: number;
  errors: number;
  total: number;
}

function wakitTargets(suffix: string, env: Record<string, string>): Target[] {
  const script = path.join(BENCH_DIR, 'servers', 'wakit.ts');
  const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
  return [
    { name: `wakit${suffix}`, env },
    { name: `wakit-intake${suffix}`, env: { ...env, BENCH_WAKIT_CONFIG: intakeConfig() } },
  ].map(({ name, env: targetEnv }) => ({
    name,
    script,
    nodeArgs: ['--import', 'tsx'],
    headers,
    env: targetEnv,
  }));
}

function targets(): Target[] {
  const base = process.env.BENCH_WAKIT_BASE;
  const [wakit, intake] = wakitTargets('', {});
  const [wakitBase, intakeBase] = base
    ? wakitTargets('-base', { BENCH_WAKIT_DIST: path.resolve(base, 'dist', 'index.js') })
    : [];
  const bare = (name: string, file: string): Target => ({
    name,
    script: path.join(BENCH_DIR, 'servers', file),
    nodeArgs: [],
    headers: {},
  });
  const koa = bare('koa', 'koa.mjs');
  const all = [wakit, wakitBase, intake, intakeBase, koa, bare('express', 'express.mjs')];
  const wanted = (process.env.BENCH_TARGETS ?? '').split(',').filter(Boolean);
  const present = all.filter((t): t is Target => t !== undefined);
  return wanted.length ? present.filter((t) => wanted.includes(t.name)) : present;
}

/** BENCH_RATE: requests per second offered in all (autocannon's overallRate); else as fast as served. */
const RATE = Number(process.env.BENCH_RATE ?? 0);

function load(url: string, headers: Record<string, string>, duration: number) {
  return autocannon({
    url: `${url}/api/v1/messages`,
    method: 'POST',
    connections: 50,
    duration,
    headers: { 'content-type': 'application/json', ...headers },
    body: BODY,
    ...(RATE > 0 ? { overallRate: RATE } : {}),
  });
}

/**
 * The server's CPU time once it has gone quiet: polled every 250 ms until an interval costs less
 * than 2 % of one core (the sends, acks and commits the load started are done), at most 5 s.
 */
async function settledCpu(server: ServerProcess): Promise<number> {
  let last = await server.cpuMicros();
  for (let waited = 0; waited < 5_000; waited += 250) {
    await delay(250);
    const now = await server.cpuMicros();
    const quiet = now - last < 250_000 * 0.02;
    last = now;
    if (quiet) break;
  }
  return last;
}

interface Run {
  warmup: number;
  duration: number;
  /** where to write a CPU profile of the measured load, if any */
  profile?: string;
}

async function measure(target: Target, run: Run): Promise<Sample> {
  const server = await startServer(target.script, {
    nodeArgs: target.nodeArgs,
    ...(target.env ? { env: target.env } : {}),
  });
  try {
    if (run.warmup > 0) await load(server.url, target.headers, run.warmup);
    const cpuBefore = await settledCpu(server);
    if (run.profile) await server.startProfile();
    const r = await load(server.url, target.headers, run.duration);
    const cpuAfter = await settledCpu(server);
    if (run.profile) await server.stopProfile(run.profile);
    return {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      cpu: (cpuAfter - cpuBefore) / r.requests.total,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
      total: r.requests.total,
    };
  } finally {
    await server.stop();
  }
}

const percent = (value: number) => `${round(value * 100)} %`;
const COLUMNS = [
  'req/s median (min–max)',
  'p50 ms',
  'p99 ms median (min–max)',
  'CPU µs/req median (min–max)',
  'non-2xx',
  'errors + timeouts',
  'requests',
] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], string | number>>;
const fullRow = (row: Row) => Object.fromEntries(COLUMNS.map((c) => [c, row[c] ?? '']));

export async function benchRest(): Promise<Record<string, Record<string, string | number>>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const warmup = Number(process.env.BENCH_WARMUP ?? 2);
  const list = targets();
  if (process.env.BENCH_WAKIT_FROM !== 'src' && list.some((t) => t.name.startsWith('wakit'))) {
    buildPackage();
  }
  const samples = new Map<string, Sample[]>(list.map((t) => [t.name, []]));
  const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : '';
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const profiled: Record<string, number> = {};
  for (let i = 1; i <= rounds; i++) {
    // every other round in reverse order: a target is not always the one after the same other
    for (const target of i % 2 ? list : [...list].reverse()) {
      const file = `${target.name}.${i}.cpuprofile`;
      const profile = profileDir ? path.join(profileDir, file) : undefined;
      const sample = await measure(target, { warmup, duration, ...(profile ? { profile } : {}) });
      samples.get(target.name)!.push(sample);
      if (profileDir) {
        profiled[file] = sample.total;
        await writeFile(path.join(profileDir, 'requests.json'), JSON.stringify(profiled, null, 2));
      }
      console.error(
        `round ${i}/${rounds} ${target.name}: ${round(sample.rps)} req/s, ` +
          `${round(sample.cpu)} µs CPU/req, p99 ${sample.p99} ms, ` +
          `non-2xx ${sample.non2xx}, errors ${sample.errors}`,
      );
    }
  }
  const table: Record<string, Record<string, string | number>> = {};
  for (const [name, runs] of samples) {
    table[name] = fullRow({
      'req/s median (min–max)': spread(runs.map((s) => s.rps)),
      'p50 ms': spread(runs.map((s) => s.p50)),
      'p99 ms median (min–max)': spread(runs.map((s) => s.p99)),
      'CPU µs/req median (min–max)': spread(
        runs.map((s) => s.cpu),
        1,
      ),
      'non-2xx': runs.reduce((sum, s) => sum + s.non2xx, 0),
      'errors + timeouts': runs.reduce((sum, s) => sum + s.errors, 0),
      requests: runs.reduce((sum, s) => sum + s.total, 0),
    });
  }
  /**
   * req/s of `name` as a share of `base`'s (of the medians), and its CPU per request as a multiple
   * of `base`'s (the median of each round's ratio), each with its range over the rounds.
   */
  const ratioRow = (name: string, base: string, goal?: number): void => {
    const mine = samples.get(name);
    const other = samples.get(base);
    if (!mine?.length || !other?.length) return;
    const ratio = median(mine.map((s) => s.rps)) / median(other.map((s) => s.rps));
    const perRound = mine.map((s, i) => s.rps / other[i].rps);
    // CPU: the median of the rounds' ratios (the two servers of a round ran under the same load)
    const cpuPerRound = mine.map((s, i) => s.cpu / other[i].cpu);
    const cpuRatio = median(cpuPerRound);
    const times = (value: number) => `${round(value, 2)}×`;
    table[`${name} / ${base}`] = fullRow({
      'req/s median (min–max)': `${percent(ratio)} (per round ${percent(Math.min(...perRound))}–${percent(Math.max(...perRound))})`,
      'CPU µs/req median (min–max)': `${times(cpuRatio)} (per round ${times(Math.min(...cpuPerRound))}–${times(Math.max(...cpuPerRound))})`,
      requests:
        goal === undefined ? '' : `goal ≥ ${percent(goal)}: ${ratio >= goal ? 'met' : 'missed'}`,
    });
  };
  ratioRow('wakit', 'koa', 0.6);
  ratioRow('wakit', 'express', 1);
  ratioRow('wakit-intake', 'koa');
  ratioRow('wakit', 'wakit-base');
  ratioRow('wakit-intake', 'wakit-intake-base');
  const wakit = samples.get('wakit');
  if (wakit?.length) {
    const p99 = median(wakit.map((s) => s.p99));
    const failed = wakit.reduce((sum, s) => sum + s.non2xx + s.errors, 0);
    table['wakit goals'] = fullRow({
      'p99 ms median (min–max)': `< 25 ms: ${p99 < 25 ? 'met' : 'missed'}`,
      requests: `0 failed: ${failed === 0 ? 'met' : `missed (${failed})`}`,
    });
  }
  return table;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchRest());
}
