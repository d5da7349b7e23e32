import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import { eventually, fleetHarness, readyClients, type FleetHarness } from './fleet-harness.js';

const CHILD = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../helpers/fleet-node-child.ts',
);
const TTL_MS = 3_000;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('cluster: a node that dies (SIGKILL)', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let gcs: FakeGcsServer;
  let fleet: FleetHarness;
  let child: ChildProcess | undefined;
  let dir: string | undefined;

  before(async () => {
    redis = await RedisServer.start();
    gcs = await FakeGcsServer.start();
  });

  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (child) await exited(child);
    await fleet?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
    await gcs?.close();
    await redis?.dispose();
  });

  it('its clients come back READY on another node within the lease TTL + 5 s, without a QR', async () => {
    fleet = fleetHarness(redis.url, gcs.url, { ttlMs: TTL_MS });
    const clients = ['d1', 'd2', 'd3', 'd4'];
    dir = await mkdtemp(path.join(tmpdir(), 'wakit-fleet-child-'));
    const options = {
      redisUrl: redis.url,
      gcsUrl: gcs.url,
      prefix: fleet.prefix,
      nodeId: 'doomed',
      clients,
      dataPath: dir,
      ttlMs: TTL_MS,
    };
    child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = new Set<string>();
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const event = JSON.parse(line) as { event: string; client?: string };
        if (event.event === 'ready' && event.client) ready.add(event.client);
      } catch {
        // not an event line
      }
    });
    await eventually('four READY on the doomed node', () => ready.size === 4, 30_000);

    const survivor = await fleet.start({ nodeId: 'survivor', clients });
    const qrs: string[] = [];
    for (const client of survivor.clients) client.on('qr', () => qrs.push(client.name));
    await eventually('two handed over to the survivor', () => readyClients(survivor).length === 2);

    child.kill('SIGKILL');
    await exited(child);
    const killedAt = Date.now();
    await eventually(
      'all four READY on the survivor',
      () => readyClients(survivor).length === 4,
      TTL_MS + 5_000,
    );
    const took = Date.now() - killedAt;
    expect(took).to.be.below(TTL_MS + 5_000);
    expect(qrs, 'sessions restored from GCS').to.deep.equal([]);
    const nodes = await survivor.cluster!.nodes();
    expect(
      nodes.map((n) => n.nodeId),
      'the dead node lapsed',
    ).to.deep.equal(['survivor']);
  });
});
