/**
 * A fleet for the fault tests: a real redis-server, the GCS fixture, a webhook receiver and wakit
 * nodes as real processes (test/helpers/fleet-node.ts) sharing them, plus what the tests read back:
 * what the simulated phones received (across every node), webhook deliveries, REST answers.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { RedisServer } from '../helpers/redis-server.js';
import type { FleetNodeOptions } from '../helpers/fleet-node.js';
import { FaultDir, freePort, watchChild, type ChildServer, type Received } from './child-server.js';

const NODE_SCRIPT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../helpers/fleet-node.ts',
);

export const FLEET_TOKEN = 'fleet-test-token-0123456789abcdef012345678';
export const PHONE = '15550001111';

export interface Delivery {
  id: string;
  event: string;
  client: string;
}

export interface FleetNode extends ChildServer {
  readonly nodeId: string;
}

export class Fleet {
  readonly nodes = new Map<string, FleetNode>();

  private constructor(
    /** Webhook deliveries the receiver got, in order (retries included). */
    readonly deliveries: Delivery[],
    readonly redis: RedisServer,
    readonly gcs: FakeGcsServer,
    readonly dir: FaultDir,
    private readonly hooks: Server,
    readonly hookUrl: string,
    readonly clients: string[],
    readonly lease: FleetNodeOptions['lease'],
  ) {}

  static async start(clients: string[], lease: FleetNodeOptions['lease']): Promise<Fleet> {
    const redis = await RedisServer.start();
    const gcs = await FakeGcsServer.start();
    const dir = await FaultDir.create();
    const deliveries: Delivery[] = [];
    const hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        try {
          const event = JSON.parse(body) as Delivery;
          deliveries.push({ id: event.id, event: event.event, client: event.client });
        } catch {
          // not a delivery
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    const { port } = hooks.address() as { port: number };
    return new Fleet(
      deliveries,
      redis,
      gcs,
      dir,
      hooks,
      `http://127.0.0.1:${port}/hook`,
      clients,
      lease,
    );
  }

  async startNode(nodeId: string, extra: Partial<FleetNodeOptions> = {}): Promise<FleetNode> {
    const options: FleetNodeOptions = {
      nodeId,
      port: await freePort(),
      redisUrl: this.redis.url,
      gcsUrl: this.gcs.url,
      dataPath: path.join(this.dir.dir, nodeId),
      token: FLEET_TOKEN,
      clients: this.clients,
      received: this.dir.receivedFile,
      phones: [PHONE],
      webhookUrl: this.hookUrl,
      webhookSecret: 'fleet-webhook-secret-0123456789abcdef',
      lease: this.lease,
      heartbeatMs: 300,
      ...extra,
    };
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', NODE_SCRIPT, JSON.stringify(options)],
      {
        // stdin: commands to nodes that run the order dialog (fleet-node.ts)
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const node: FleetNode = Object.assign(
      watchChild(child, `http://127.0.0.1:${options.port}`, FLEET_TOKEN),
      { nodeId },
    );
    this.nodes.set(nodeId, node);
    await node.waitFor('started', (l) => l.event === 'started');
    return node;
  }

  /** What the phones received, across every node and restart. */
  received(): (Received & { node: string })[] {
    return this.dir.received() as (Received & { node: string })[];
  }

  /** Clients whose last `ready` (after their last `state` away from READY) was on `node`. */
  readyOn(node: FleetNode): string[] {
    const state = new Map<string, string>();
    for (const line of node.lines) {
      if (line.event === 'state' && typeof line.client === 'string') {
        state.set(line.client, String(line.to));
      }
    }
    return [...state].filter(([, to]) => to === 'READY').map(([client]) => client);
  }

  /** Every client READY somewhere among `nodes` (by their own reports). */
  placement(nodes: FleetNode[]): Map<string, string> {
    const owner = new Map<string, string>();
    for (const node of nodes)
      for (const client of this.readyOn(node)) owner.set(client, node.nodeId);
    return owner;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.hooks.close(() => resolve()));
    this.hooks.closeAllConnections();
    await this.gcs.close();
    await this.redis.dispose();
    await rm(this.dir.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}
