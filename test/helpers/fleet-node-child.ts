/**
 * One node of a fleet in its own process (for SIGKILL tests): simulator engine, remote sessions on
 * a fake GCS, cluster on a real Redis. Prints its clients' events as JSON lines.
 * Usage: node --import tsx test/helpers/fleet-node-child.ts <json options>
 * options: { redisUrl, gcsUrl, prefix, nodeId, clients, dataPath, ttlMs }
 */
import { createSdk } from '../../src/sdk.js';

const options = JSON.parse(process.argv[2] ?? '{}') as {
  redisUrl: string;
  gcsUrl: string;
  prefix: string;
  nodeId: string;
  clients: string[];
  dataPath: string;
  ttlMs: number;
};

function report(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
}

const sdk = createSdk(
  {
    engine: { type: 'simulator', autoScanMs: 50, ackDelayMs: 0 },
    auth: {
      type: 'remote',
      storage: {
        projectId: 'test',
        bucket: 'wakit-fleet',
        path: options.prefix,
        apiEndpoint: options.gcsUrl,
      },
      dataPath: options.dataPath,
      lease: { ttlMs: options.ttlMs, renewMs: 300, retryMs: 200, onLeased: 'wait' },
    },
    clients: options.clients,
    cluster: {
      type: 'redis',
      url: options.redisUrl,
      nodeId: options.nodeId,
      keyPrefix: options.prefix,
      heartbeatMs: 200,
    },
    log: { level: 'silent' },
  },
  { baseDir: options.dataPath },
);

sdk.onClient((client) => {
  client.on('ready', () => report('ready', { client: client.name }));
  client.on('qr', () => report('qr', { client: client.name }));
});
process.on('SIGTERM', () => {
  void sdk.stop().finally(() => process.exit(0));
});
const keepAlive = setInterval(() => undefined, 60_000);
process.on('SIGTERM', () => clearInterval(keepAlive));
sdk.start().then(
  () => report('started'),
  (error: unknown) => {
    report('failed', { error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);
