/**
 * Fleets of SDKs in one test process: each node its own SDK, simulator network and data directory,
 * all sharing one real redis-server and one fake GCS (sessions and leases), so a client handed
 * over comes back on another node from its saved session without a QR.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSdk, type Plugin, type Sdk, type WakitConfigInput } from '../../src/index.js';
import { advertisedUrl, createRestServer, type RestServer } from '../../plugins/rest/server.js';
import type { RestOptionsInput } from '../../plugins/rest/options.js';
import { restHostOf } from '../helpers/rest-host.js';
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
import '../../src/entries/simulator.js';

let fleets = 0;

export interface NodeOptions {
  nodeId: string;
  clients?: string[];
  maxClients?: number;
  advertiseUrl?: string;
  /** A REST server on a free loopback port (created directly, as the REST tests do), advertised. */
  rest?: RestOptionsInput;
  /** Plugins the node uses (added before it starts), each alone or with its options. */
  plugins?: (Plugin | [Plugin, unknown])[];
  /** More configuration of the node (sections the harness does not set: handoff, queue, …). */
  config?: Omit<WakitConfigInput, 'engine' | 'auth' | 'clients' | 'cluster'>;
}

export interface FleetHarness {
  /** Keys of this fleet start with it. */
  readonly prefix: string;
  start(options: NodeOptions): Promise<Sdk>;
  /** The REST base URL of a node started with `rest`. */
  urlOf(sdk: Sdk): string;
  /** Stops every node still running and removes their directories. */
  dispose(): Promise<void>;
}

/** A fleet on `redisUrl` / `gcsUrl`, its Redis keys and GCS objects apart from other fleets. */
export function fleetHarness(
  redisUrl: string,
  gcsUrl: string,
  lease: { ttlMs: number } = { ttlMs: 10_000 },
): FleetHarness {
  const run = `f${++fleets}${Date.now().toString(36)}`;
  const nodes: Sdk[] = [];
  const servers = new Map<Sdk, RestServer>();
  const dirs: string[] = [];
  return {
    prefix: run,
    async start(options) {
      const dir = await mkdtemp(path.join(tmpdir(), 'wakit-fleet-'));
      dirs.push(dir);
      const config: WakitConfigInput = {
        engine: { type: 'simulator', autoScanMs: 50, ackDelayMs: 0 },
        auth: {
          type: 'remote',
          storage: { projectId: 'test', bucket: 'wakit-fleet', path: run, apiEndpoint: gcsUrl },
          dataPath: './remote',
          lease: { ttlMs: lease.ttlMs, renewMs: 300, retryMs: 200, onLeased: 'wait' },
        },
        clients: options.clients ?? [],
        cluster: {
          type: 'redis',
          url: redisUrl,
          nodeId: options.nodeId,
          keyPrefix: run,
          heartbeatMs: 200,
          ...(options.maxClients === undefined ? {} : { maxClients: options.maxClients }),
          ...(options.advertiseUrl === undefined ? {} : { advertiseUrl: options.advertiseUrl }),
        },
        log: { level: 'silent' },
        ...options.config,
      };
      const sdk = createSdk(config, { baseDir: dir });
      nodes.push(sdk);
      for (const entry of options.plugins ?? []) {
        if (Array.isArray(entry)) sdk.use(entry[0], entry[1]);
        else sdk.use(entry);
      }
      if (options.rest) {
        // the fleet's code is loaded on demand: the REST host reads `sdk.cluster` now
        await sdk.loadCluster();
        const server = await createRestServer({
          sdk: restHostOf(sdk),
          logger: sdk.logger,
          options: { ...options.rest, port: 0 },
        });
        servers.set(sdk, server);
        await server.listen();
        sdk.cluster!.advertise(advertisedUrl('127.0.0.1', server.port));
      }
      await sdk.start();
      return sdk;
    },
    urlOf(sdk) {
      const server = servers.get(sdk);
      if (!server) throw new Error('node started without rest');
      return server.url;
    },
    async dispose() {
      await Promise.all([...servers.values()].map((server) => server.close()));
      await Promise.all(nodes.map((sdk) => sdk.stop({ drainTimeoutMs: 0 })));
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** Polls `check` until it returns true; fails with `what` after `timeoutMs`. */
export async function eventually(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

/** The clients `sdk` runs now. */
export function localClients(sdk: Sdk): string[] {
  return sdk.clients
    .filter((client) => sdk.cluster?.isLocal(client.name))
    .map((client) => client.name)
    .sort();
}

/** The clients `sdk` runs that are READY. */
export function readyClients(sdk: Sdk): string[] {
  return sdk.clients
    .filter((c) => sdk.cluster?.isLocal(c.name) && c.state === 'READY')
    .map((c) => c.name)
    .sort();
}
