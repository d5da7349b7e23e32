/**
 * Session lease failures reach the sink (issue 30, B3): a lease another server holds with
 * `onLeased: 'fail'`, and a lease lost while running, each reported once (source `session`), on
 * the fake GCS server.
 */
import { expect } from 'chai';
import type { WakitErrorEvent } from '../../src/kernel/error-sink.js';
import type { Sdk } from '../../src/sdk.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { linkedClient, simulatorSdk, tempDir } from '../helpers/sdk-fixtures.js';

async function until(check: () => boolean, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('session lease failures reach the sink, once', function () {
  this.timeout(30_000);
  let fake: FakeGcsServer;
  const cleanups: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    fake = await FakeGcsServer.start();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await fake.close();
  });

  async function server(
    onLeased: 'wait' | 'fail',
  ): Promise<{ sdk: Sdk; errors: WakitErrorEvent[] }> {
    const dir = await tempDir();
    const sdk = simulatorSdk(dir.dir, {
      engine: { type: 'simulator', ackDelayMs: 0 },
      auth: {
        type: 'remote',
        storage: {
          projectId: 'test',
          bucket: 'wakit-sink',
          path: 'sessions',
          apiEndpoint: fake.url,
        },
        dataPath: dir.dir,
        lease: { ttlMs: 1_000, renewMs: 200, retryMs: 100, onLeased },
      },
    });
    cleanups.push(dir.cleanup, () => sdk.stop());
    const errors: WakitErrorEvent[] = [];
    sdk.on('error', (e) => errors.push(e));
    await sdk.start();
    return { sdk, errors };
  }

  it('a session leased by another server with onLeased: fail (source session, event lease)', async () => {
    const a = await server('fail');
    await linkedClient(a.sdk, 'shop');
    const b = await server('fail');
    const shop = b.sdk.createClient({ name: 'shop' });
    const failure = await shop.initialize().catch((e: unknown) => e);
    expect(failure).to.have.property('code', 'SESSION_LEASED');
    expect(shop.state).to.equal('FAILED');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(b.errors.map((e) => [e.source, e.event, e.client, e.error.code])).to.deep.equal([
      ['session', 'lease', 'shop', 'SESSION_LEASED'],
    ]);
    expect(a.errors).to.deep.equal([]);
  });

  it('a lease another server took over while running (source session, event lease.lost)', async () => {
    const a = await server('fail');
    const shop = await linkedClient(a.sdk, 'shop');
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const record = { holder: 'another-server', acquiredAt: new Date().toISOString(), expiresAt };
    fake.put('wakit-sink', 'sessions/shop/lease.json', Buffer.from(JSON.stringify(record)));
    await until(() => shop.state === 'FAILED');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.errors.map((e) => [e.source, e.event, e.client, e.error.code])).to.deep.equal([
      ['session', 'lease.lost', 'shop', 'SESSION_LEASED'],
    ]);
  });
});
