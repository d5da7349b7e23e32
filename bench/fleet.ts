/**
 * Fleet benchmark (issue 14): accepted sends per second across a three-node fleet on Redis against
 * one server with the SQLite outbox, Redis commands per accepted send, and the failover time.
 *
 * - fleet: three wakit nodes (real processes, test/helpers/fleet-node.ts: simulator engine, sessions
 *   in the GCS test fixture, a real `redis-server` with the append-only file on), six clients; the
 *   load is three autocannon instances at once, one per node (16 connections each), each posting
 *   sends for a client, so most sends are for a client another node runs.
 * - single: bench/servers/wakit.ts (one client, SQLite outbox, default durability), 48 connections.
 * Both with pacing on (queue.minGapMs 1000: sends wait in the outbox, the measure is the intake) and
 * a queue large enough never to answer 429. Rounds interleaved (single, fleet, single, ...);
 * medians with their spread. Then one node is SIGKILLed: how long until its clients are READY on
 * the others (with the lease TTL used here).
 *
 * Environment: BENCH_ROUNDS (3), BENCH_DURATION seconds per measurement (8), BENCH_WARMUP (2).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Redis } from 'ioredis';
import { FLEET_TOKEN, Fleet } from '../test/faults/fault-fleet-harness.js';
import { BENCH_DIR, startServer, type ServerProcess } from './server-process.js';
import { BENCH_CONTACT, BENCH_TOKEN } from './servers/wakit.js';
import { median, round, spread } from './stats.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CLIENTS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
const LEASE = { ttlMs: 5_000, renewMs: 1_000, retryMs: 250 };
const QUEUE = { minGapMs: 1_000, jitterMs: 0, perChatGapMs: 0, maxSize: 10_000_000 };

interface Load {
  url: string;
  token: string;
  client?: string;
  connections: number;
}

async function load(
  targets: Load[],
  seconds: number,
): Promise<{ rps: number; p99: number; failed: number; total: number }> {
  const results = await Promise.all(
    targets.map((t) =>
      autocannon({
        url: `${t.url}/api/v1/messages`,
        method: 'POST',
        connections: t.connections,
        duration: seconds,
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          chatId: BENCH_CONTACT,
          content: 'Hello from the fleet benchmark',
          ...(t.client ? { client: t.client } : {}),
        }),
      }),
    ),
  );
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
    total: results.reduce((sum, r) => sum + r.requests.total, 0),
  };
}

/** Calls per Redis command so far (INFO commandstats). */
async function redisCalls(redis: Redis): Promise<Map<string, number>> {
  const stats = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of stats.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)) {
    calls.set(match[1], Number(match[2]));
  }
  return calls;
}

/** Commands per send between two readings: the total and the five most frequent. */
function perSend(before: Map<string, number>, after: Map<string, number>, sends: number) {
  const delta = [...after].map(([cmd, n]) => [cmd, (n - (before.get(cmd) ?? 0)) / sends] as const);
  const total = delta.reduce((sum, [, n]) => sum + n, 0);
  const top = delta
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([cmd, n]) => `${cmd} ${round(n, 2)}`)
    .join(', ');
  return { total, top };
}

export async function benchFleet(): Promise<Record<string, unknown>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const seconds = Number(process.env.BENCH_DURATION ?? 8);
  const warmup = Number(process.env.BENCH_WARMUP ?? 2);
  const fleet = await Fleet.start(CLIENTS, LEASE);
  let single: ServerProcess | undefined;
  const probe = new Redis(fleet.redis.url);
  try {
    const nodes = [];
    for (const id of ['n1', 'n2', 'n3']) nodes.push(await fleet.startNode(id, { queue: QUEUE }));
    const settled = Date.now() + 60_000;
    while (fleet.placement(nodes).size < CLIENTS.length && Date.now() < settled) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    single = await startServer(path.join(BENCH_DIR, 'servers', 'wakit.ts'), {
      nodeArgs: ['--import', 'tsx'],
      // the sources, like the fleet's nodes
      env: {
        BENCH_WAKIT_FROM: 'src',
        BENCH_WAKIT_CONFIG: JSON.stringify({ queue: QUEUE, log: { level: 'warn' } }),
      },
    });
    const fleetLoad: Load[] = nodes.map((node, i) => ({
      url: node.url,
      token: FLEET_TOKEN,
      client: CLIENTS[(i * 2 + 1) % CLIENTS.length],
      connections: 16,
    }));
    const singleLoad: Load[] = [{ url: single.url, token: BENCH_TOKEN, connections: 48 }];
    await load(singleLoad, warmup);
    await load(fleetLoad, warmup);
    const samples = {
      single: [] as number[],
      fleet: [] as number[],
      p99s: [] as number[],
      p99f: [] as number[],
      perSend: [] as number[],
      failed: 0,
    };
    for (let r = 1; r <= rounds; r++) {
      const s = await load(singleLoad, seconds);
      console.log(
        `round ${r}/${rounds} single: ${round(s.rps)} accepts/s, p99 ${s.p99} ms, failed ${s.failed}`,
      );
      const before = await redisCalls(probe);
      const f = await load(fleetLoad, seconds);
      const calls = perSend(before, await redisCalls(probe), Math.max(1, f.total));
      console.log(
        `round ${r}/${rounds} fleet:  ${round(f.rps)} accepts/s, p99 ${f.p99} ms, failed ${f.failed}, ${round(calls.total, 2)} Redis commands per send (${calls.top})`,
      );
      samples.single.push(s.rps);
      samples.fleet.push(f.rps);
      samples.p99s.push(s.p99);
      samples.p99f.push(f.p99);
      samples.perSend.push(calls.total);
      samples.failed += s.failed + f.failed;
    }
    const victim = nodes[0];
    const orphans = fleet.readyOn(victim);
    const killedAt = Date.now();
    await victim.kill('SIGKILL');
    const survivors = nodes.slice(1);
    let failoverMs = NaN;
    while (Date.now() - killedAt < 60_000) {
      const now = fleet.placement(survivors);
      if (orphans.every((c) => now.has(c))) {
        failoverMs = Date.now() - killedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return {
      'single node (SQLite) accepts/s': spread(samples.single),
      'single node p99 ms': spread(samples.p99s),
      'three-node fleet (Redis) accepts/s': spread(samples.fleet),
      'fleet p99 ms': spread(samples.p99f),
      'fleet / single': `${round((median(samples.fleet) / median(samples.single)) * 100)} %`,
      'Redis commands per accepted send': spread(samples.perSend, 2),
      'failed requests': samples.failed,
      [`failover: ${orphans.length} clients READY elsewhere after SIGKILL (lease TTL ${LEASE.ttlMs} ms)`]: `${failoverMs} ms`,
    };
  } finally {
    probe.disconnect();
    await single?.stop();
    for (const node of fleet.nodes.values()) await node.kill('SIGKILL');
    await fleet.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  console.table(await benchFleet());
}
