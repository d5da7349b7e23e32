/**
 * One wakit process of the RemoteAuth test: client `shop` on the real whatsapp-web.js + the
 * WhatsApp Web double, its session in the remote (GCS) store on a fake GCS server. Prints its
 * events as JSON lines. With `link`, it also plays the phone and scans the first QR.
 * Usage: node --import tsx remote-child.ts <gcsUrl> <dataPath> <buildsDir> <version> [link]
 */
import { createSdk } from '../../src/sdk.js';
import { engineSchema } from '../../src/config/schema.js';
import { createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import type { ClientLike, WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { callPhone, latestPage, observingBindings } from './harness.js';

const [gcsUrl, dataPath, buildsDir, version, mode] = process.argv.slice(2);
if (!gcsUrl || !dataPath || !buildsDir || !version) throw new Error('usage: see the header');

function report(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, pid: process.pid, ...data })}\n`);
}

const engine = {
  type: 'whatsapp-web.js',
  webVersion: version,
  webVersionCache: { type: 'local', path: buildsDir },
} as const;
const clients: ClientLike[] = [];
const sdk = createSdk(
  {
    engine,
    auth: {
      type: 'remote',
      storage: { projectId: 'test', bucket: 'wakit-double', path: 'sessions', apiEndpoint: gcsUrl },
      dataPath,
      lease: { ttlMs: 3_000, renewMs: 500, retryMs: 300, onLeased: 'wait' },
    },
    log: { level: 'silent' },
  },
  {
    engineFactory: createWwebjsEngineFactory(engineSchema.parse(engine) as WwebjsEngineConfig, {
      bindings: observingBindings(clients, []),
    }),
  },
);

const client = sdk.createClient({ name: 'shop' });
client.on('qr', (qr) => {
  report('qr');
  if (mode === 'link') {
    void latestPage(clients).then((page) => callPhone(page, 'scan', [qr]));
  }
});
client.on('authenticated', (session) => report('authenticated', { restored: session.restored }));
client.on('ready', () => report('ready', { me: client.info().me?.id }));
client.on('session.leased', () => report('session.leased'));
client.on('disconnected', (reason) => report('disconnected', { reason }));

process.on('SIGTERM', () => {
  void sdk.stop().finally(() => process.exit(0));
});
const keepAlive = setInterval(() => undefined, 60_000);
process.on('SIGTERM', () => clearInterval(keepAlive));

report('starting');
client.initialize().catch((error: unknown) => {
  report('failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
