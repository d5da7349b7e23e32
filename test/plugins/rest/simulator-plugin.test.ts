// The simulator's REST routes are a plugin shipped with the `wakitjs/simulator` entry: wakit adds
// it when engine.type is simulator and the REST plugin runs; another engine has none of them.
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { createSdk, type Sdk, type WakitConfigInput } from '../../../src/index.js';

// loaded statically as well (the REST plugin, loaded by the Sdk, documents its schemas either way)
import '../../../src/entries/simulator.js';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef0123456789';
const SCOPED_TOKEN = 'scoped-token-0123456789abcdef0123456789';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface OpenApi {
  paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
  components: { schemas: Record<string, unknown> };
}

describe('REST: the simulator plugin (wakitjs/simulator)', () => {
  let dir: string;
  let sdk: Sdk | undefined;
  let url: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'wakit-sim-plugin-'));
  });
  afterEach(async () => {
    await sdk?.stop({ drainTimeoutMs: 100 });
    sdk = undefined;
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });

  async function start(config: Partial<WakitConfigInput>, rest = true): Promise<Sdk> {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    sdk = createSdk(
      {
        auth: { type: 'local', dataPath: dir },
        ...config,
        plugins: rest
          ? {
              rest: {
                port,
                tokens: [
                  { token: ADMIN_TOKEN, clients: ['*'] },
                  { token: SCOPED_TOKEN, clients: ['bot'] },
                ],
              },
            }
          : {},
      },
      { logger: pino({ level: 'silent' }) },
    );
    await sdk.start();
    return sdk;
  }

  const call = (method: string, route: string, token: string | null, json?: unknown) =>
    fetch(`${url}${route}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });

  it('serves /api/v1/simulator/... with the simulator engine, documented under its tag', async () => {
    const started = await start({ engine: { type: 'simulator', ackDelayMs: 5 }, clients: ['bot'] });
    expect(started.plugins.list()).to.deep.include({
      name: 'simulator',
      version: '1.0.0',
      source: 'wakitjs/simulator',
      privileges: ['simulator'],
    });
    // the REST plugin no longer needs the simulator's network
    const rest = started.plugins.list().find((p) => p.name === 'rest');
    expect(rest?.privileges).to.not.include('simulator');

    const doc = (await (await call('GET', '/api/v1/openapi.json', null)).json()) as OpenApi;
    expect(doc.paths['/api/v1/simulator/scan']?.post).to.include({ operationId: 'simulatorScan' });
    expect(doc.paths['/api/v1/simulator/scan']?.post?.tags).to.deep.equal(['simulator']);
    expect(doc.paths['/api/v1/simulator/phones/{number}/inbox']?.get?.operationId).to.equal(
      'simulatorInbox',
    );
    expect(doc.components.schemas).to.have.property('SimulatorScanned');

    // a token for some clients only: FORBIDDEN (the routes need one for all clients)
    const scoped = await call('POST', '/api/v1/simulator/scan', SCOPED_TOKEN, { client: 'bot' });
    expect(scoped.status).to.equal(403);
    expect(((await scoped.json()) as { code: string }).code).to.equal('FORBIDDEN');

    const client = started.client('bot');
    if (client.state !== 'SCAN_QR') await new Promise((resolve) => client.once('qr', resolve));
    const scanned = await call('POST', '/api/v1/simulator/scan', ADMIN_TOKEN, {
      client: 'bot',
      phone: '15550000001',
    });
    expect(scanned.status).to.equal(202);
    expect(await scanned.json()).to.include({ client: 'bot' });
    await client.waitUntilReady({ timeoutMs: 5_000 });

    const sent = await call('POST', '/api/v1/simulator/phones/15550001111/messages', ADMIN_TOKEN, {
      text: 'hi bot',
    });
    expect(sent.status).to.equal(201);
    const inbox = await call('GET', '/api/v1/simulator/phones/15550001111/inbox', ADMIN_TOKEN);
    expect(inbox.status).to.equal(200);
  });

  it('is not added without the REST plugin', async () => {
    const started = await start({ engine: { type: 'simulator' }, clients: [] }, false);
    expect(started.plugins.list()).to.deep.equal([]);
  });

  it('is absent with whatsapp-web.js: 404, and not in the OpenAPI document', async () => {
    // no client: nothing launches a browser
    const started = await start({ engine: { type: 'whatsapp-web.js' }, clients: [] });
    expect(started.plugins.list().map((p) => p.name)).to.deep.equal(['rest']);
    const scan = await call('POST', '/api/v1/simulator/scan', ADMIN_TOKEN, { client: 'bot' });
    expect(scan.status).to.equal(404);
    const inbox = await call('GET', '/api/v1/simulator/phones/15550001111/inbox', ADMIN_TOKEN);
    expect(inbox.status).to.equal(404);
    const doc = (await (await call('GET', '/api/v1/openapi.json', null)).json()) as OpenApi;
    const simulator = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/simulator'));
    expect(simulator).to.deep.equal([]);
    const tags = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).flatMap((o) => o.tags),
    );
    expect(tags).to.not.include('simulator');
    // nor its components (its schemas are named in this process: the simulator is loaded here)
    expect(doc.components.schemas).to.not.have.property('SimulatorScanned');
    expect(doc.components.schemas).to.have.property('ClientSummary');
  });
});
