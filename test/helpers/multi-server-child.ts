/**
 * One "server" of the multi-server test: runs client `shop` on the simulator engine with the remote
 * (GCS) session store pointing at a fake GCS server, and prints its events as JSON lines.
 * Usage: node --import tsx test/helpers/multi-server-child.ts <gcsUrl> <dataPath>
 */
import { createSdk } from '../../src/sdk.js';
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
import '../../src/entries/simulator.js';

const [gcsUrl, dataPath] = process.argv.slice(2);
if (!gcsUrl || !dataPath) throw new Error('usage: multi-server-child <gcsUrl> <dataPath>');

function report(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, pid: process.pid, ...data })}\n`);
}

const sdk = createSdk({
  engine: { type: 'simulator', autoScanMs: 50, ackDelayMs: 0 },
  auth: {
    type: 'remote',
    storage: { projectId: 'test', bucket: 'wakit-multi', path: 'sessions', apiEndpoint: gcsUrl },
    dataPath,
    lease: { ttlMs: 1_500, renewMs: 300, retryMs: 200, onLeased: 'wait' },
  },
  log: { level: 'silent' },
});

const client = sdk.createClient({ name: 'shop' });
client.on('qr', () => report('qr'));
client.on('authenticated', (session) => report('authenticated', { restored: session.restored }));
client.on('ready', () => report('ready'));
client.on('session.leased', (info) => report('session.leased', { holder: info.holder }));
client.on('disconnected', (reason) => report('disconnected', { reason }));

process.on('SIGTERM', () => {
  void sdk.stop().finally(() => process.exit(0));
});

// A real server is kept alive by its HTTP listener; wakit's own timers are unref()ed.
const keepAlive = setInterval(() => undefined, 60_000);
process.on('SIGTERM', () => clearInterval(keepAlive));

report('starting');
client.initialize().catch((error: unknown) => {
  report('failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
