import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createSdk, type Sdk, type WakitConfigInput } from '../../src/index.js';
// the simulator's entry: `sdk.simulator` from createSdk on, before start (docs/simulator.md)
import '../../src/entries/simulator.js';

export const BOT_PHONE = '15550000001';
export const BOT_ID = `${BOT_PHONE}@c.us`;

/** A temp directory removed by `cleanup()`. */
export async function tempDir(
  prefix = 'wakit-test-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** An SDK on the simulator with pacing off, a silent logger and its own session directory. */
/** An SDK on the simulator, pacing off; relative paths of the config resolve from `baseDir`. */
export function simulatorSdk(
  dataPath: string,
  overrides: Partial<WakitConfigInput> = {},
  baseDir?: string,
): Sdk {
  return createSdk(
    {
      engine: { type: 'simulator', ackDelayMs: 5 },
      auth: { type: 'local', dataPath },
      queue: { minGapMs: 0, jitterMs: 0, perChatGapMs: 0, retryBackoffMs: 10 },
      media: { allowPrivateNetworks: true },
      ...overrides,
    },
    { logger: pino({ level: 'silent' }), ...(baseDir ? { baseDir } : {}) },
  );
}

/** Creates a client that links as `phone` when its QR is shown, and waits until it is READY. */
export async function linkedClient(sdk: Sdk, name: string, phone = BOT_PHONE) {
  const client = sdk.createClient({ name });
  client.on('qr', (qr) => sdk.simulator.scan(qr, { phone }));
  await client.initialize();
  await client.waitUntilReady({ timeoutMs: 5_000 });
  return client;
}

/** A local HTTP server for media: `/<name>` serves `files[name]`. */
export async function mediaServer(files: Record<string, { type: string; body: Buffer }>) {
  const server = http.createServer((req, res) => {
    const file = files[(req.url ?? '').slice(1)];
    if (!file) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name: string) => `http://127.0.0.1:${port}/${name}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
