/**
 * One wakit process of the outage test: client `shop` on the real whatsapp-web.js + the WhatsApp
 * Web double, with the REST server, configured as a user would for a live build
 * (`webVersion: live`, a local web cache) and with Chromium's resolver failing web.whatsapp.com
 * (`--host-resolver-rules`): until `<buildsDir>/<build>.html` exists, every start really
 * navigates to https://web.whatsapp.com/ and fails with net::ERR_NAME_NOT_RESOLVED. Prints its
 * events as JSON lines and plays the phone (scans the first QR).
 * Usage: node --import tsx outage-child.ts <dataPath> <buildsDir>
 */
import { createSdk } from '../../src/sdk.js';
import { engineSchema } from '../../src/config/schema.js';
import { createWwebjsEngineFactory } from '../../src/engines/wwebjs/index.js';
import type { ClientLike, WwebjsEngineConfig } from '../../src/engines/wwebjs/types.js';
import { callPhone, latestPage, observingBindings } from './harness.js';
import { TOKEN, restOnDouble } from './rest-on-double.js';

const [dataPath, buildsDir] = process.argv.slice(2);
if (!dataPath || !buildsDir) throw new Error('usage: see the header');

function report(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, pid: process.pid, ...data })}\n`);
}

const engine = {
  type: 'whatsapp-web.js',
  webVersion: 'live',
  webVersionCache: { type: 'local', path: buildsDir },
  // DNS for WhatsApp fails; nothing else resolves either (no request leaves this machine)
  puppeteer: { args: ['--host-resolver-rules=MAP * ~NOTFOUND'] },
  authTimeoutMs: 30_000,
} as const;
const clients: ClientLike[] = [];
const sdk = createSdk(
  {
    engine,
    clients: ['shop'],
    auth: { type: 'local', dataPath },
    // short backoffs stand in for the production ones (1 s doubling to 60 s)
    reconnect: { maxAttempts: 2, initialDelayMs: 100, maxDelayMs: 400, jitter: 'none' },
    log: { level: process.env.WAKIT_DOUBLE_DEBUG ? 'debug' : 'silent' },
  },
  {
    engineFactory: createWwebjsEngineFactory(engineSchema.parse(engine) as WwebjsEngineConfig, {
      bindings: observingBindings(clients, []),
    }),
  },
);

const { server } = await restOnDouble(sdk);
report('rest', { url: server.url, token: TOKEN });
const client = sdk.createClient({ name: 'shop' });
client.on('qr', (qr) => {
  report('qr');
  void latestPage(clients).then((page) => callPhone(page, 'scan', [qr]));
});
client.on('ready', () => report('ready', { me: client.info().me?.id }));
client.on('disconnected', (reason) => report('disconnected', { reason }));
client.on('state', ({ to }) => report('state', { to, reconnect: client.info().reconnect }));
sdk.on('error', ({ error, event }) =>
  report('error', { event, error: error instanceof Error ? error.message : String(error) }),
);

process.on('SIGTERM', () => {
  void server
    .close()
    .then(() => sdk.stop())
    .finally(() => process.exit(0));
});
const keepAlive = setInterval(() => undefined, 60_000);
process.on('SIGTERM', () => clearInterval(keepAlive));

report('starting');
// what `wakit start` does: start the plugins and every configured client
sdk.start().catch((error: unknown) => {
  report('failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
