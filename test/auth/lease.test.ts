import { expect } from 'chai';
import { GcsSessionStore } from '../../src/auth/gcs-store.js';
import type { GcsLease } from '../../src/auth/lease.js';
import { acquireWithRetry, defaultHolderId, type LeaseRecord } from '../../src/auth/lease.js';
import { LocalSessionStore } from '../../src/auth/local-store.js';
import type { WakitError } from '../../src/errors/index.js';
import { isWakitError } from '../../src/errors/index.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { BUCKET, captureLogger, remoteConfig, tempDir } from './auth-helpers.js';

const LEASE = 'wakit/sessions/alice/lease.json';

function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new Error('condition not met in time'));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

describe('GCS session leases', () => {
  let fake: FakeGcsServer;
  let dir: string;
  let cleanup: () => Promise<void>;
  const leases: { release(): Promise<void> }[] = [];

  function server(
    holderId: string,
    lease: Record<string, unknown> = {},
  ): { store: GcsSessionStore; lines: string[] } {
    const { logger, lines } = captureLogger();
    const store = new GcsSessionStore(remoteConfig(dir, { lease }), logger, {
      storage: fake.storage(),
      holderId,
    });
    return { store, lines };
  }

  function record(): LeaseRecord | undefined {
    const object = fake.get(BUCKET, LEASE);
    return object ? (JSON.parse(object.data.toString('utf8')) as LeaseRecord) : undefined;
  }

  async function take(store: GcsSessionStore, onLost?: (e: Error) => void): Promise<GcsLease> {
    const lease = (await store.acquire('alice', onLost ? { onLost } : {})) as GcsLease;
    leases.push(lease);
    return lease;
  }

  beforeEach(async () => {
    fake = await FakeGcsServer.start();
    ({ dir, cleanup } = await tempDir());
  });

  afterEach(async () => {
    await Promise.all(leases.splice(0).map((l) => l.release()));
    await fake.close();
    await cleanup();
  });

  it('creates lease.json with holder, acquiredAt and expiresAt', async () => {
    const { store } = server('server-a', { ttlMs: 60_000, renewMs: 10_000 });
    const before = Date.now();
    const lease = await take(store);
    const value = record()!;
    expect(value.holder).to.equal('server-a');
    expect(Date.parse(value.expiresAt)).to.be.within(before + 60_000, Date.now() + 60_000);
    expect(Date.parse(value.acquiredAt)).to.be.within(before, Date.now());
    expect(lease.holder).to.equal('server-a');
    expect(lease.lost).to.equal(false);
    const create = fake.requests.find((r) => r.query.name === LEASE);
    expect(create?.query.ifGenerationMatch).to.equal('0');
  });

  it('a second holder gets SESSION_LEASED with the holder and expiry', async () => {
    await take(server('server-a', { ttlMs: 60_000, renewMs: 10_000 }).store);
    const error = await server('server-b')
      .store.acquire('alice')
      .catch((e: unknown) => e);
    expect(isWakitError(error, 'SESSION_LEASED')).to.equal(true);
    const details = (error as WakitError).details!;
    expect(details.holder).to.equal('server-a');
    expect(details.expiresAt).to.equal(record()!.expiresAt);
    expect(record()!.holder).to.equal('server-a');
  });

  it('takes over a lease that lapsed (holder died without releasing)', async () => {
    const a = await take(server('server-a', { ttlMs: 1_000, renewMs: 900 }).store);
    a.supersede(); // simulate a crash: no more renewals, no release
    const { store: b, lines } = server('server-b', { ttlMs: 1_000, renewMs: 200 });
    const first = await b.acquire('alice').catch((e: unknown) => e);
    expect(isWakitError(first, 'SESSION_LEASED')).to.equal(true);

    await waitFor(() => Date.parse(record()!.expiresAt) < Date.now());
    await take(b);
    expect(record()!.holder).to.equal('server-b');
    expect(lines.some((l) => l.includes('taken over') && l.includes('server-a'))).to.equal(true);
  });

  it('the same holder may re-take its own unexpired lease', async () => {
    const { store } = server('server-a', { ttlMs: 60_000, renewMs: 150 });
    const first = await take(store);
    const second = await take(store);
    expect(record()!.holder).to.equal('server-a');
    // The superseded handle stops renewing, so it neither loses nor fights the new one.
    await new Promise((r) => setTimeout(r, 500));
    expect(first.lost).to.equal(false);
    expect(second.lost).to.equal(false);
  });

  it('renews on a timer with ifGenerationMatch, keeping the lease past its ttl', async () => {
    const { store } = server('server-a', { ttlMs: 1_000, renewMs: 150 });
    const lease = await take(store);
    const firstExpiry = Date.parse(record()!.expiresAt);
    await waitFor(() => Date.parse(record()!.expiresAt) > firstExpiry + 300);
    const renewals = fake.requests.filter((r) => r.query.name === LEASE).slice(1);
    expect(renewals.length).to.be.greaterThan(0);
    expect(renewals.every((r) => r.query.ifGenerationMatch !== '0' && r.status === 200)).to.equal(
      true,
    );
    expect(lease.lost).to.equal(false);
    const other = await server('server-b')
      .store.acquire('alice')
      .catch((e: unknown) => e);
    expect(isWakitError(other, 'SESSION_LEASED')).to.equal(true);
  });

  it('release deletes the lease (idempotently) so another holder can take it at once', async () => {
    const lease = await take(server('server-a', { ttlMs: 60_000, renewMs: 10_000 }).store);
    const generation = fake.get(BUCKET, LEASE)!.generation;
    await lease.release();
    await lease.release();
    expect(record()).to.equal(undefined);
    const deletes = fake.requests.filter((r) => r.method === 'DELETE');
    expect(deletes).to.have.length(1);
    expect(deletes[0].query.ifGenerationMatch).to.equal(String(generation));
    await take(server('server-b', { ttlMs: 60_000, renewMs: 10_000 }).store);
    expect(record()!.holder).to.equal('server-b');
  });

  it('release does not delete a lease that another holder took over', async () => {
    const a = await take(server('server-a', { ttlMs: 1_000, renewMs: 900 }).store);
    a.supersede();
    await waitFor(() => Date.parse(record()!.expiresAt) < Date.now());
    await take(server('server-b', { ttlMs: 60_000, renewMs: 10_000 }).store);
    await a.release();
    expect(record()!.holder).to.equal('server-b');
  });

  it('detects a lost lease on renewal (taken over), logs it and calls onLost once', async () => {
    const { store, lines } = server('server-a', { ttlMs: 1_000, renewMs: 150 });
    const lost: Error[] = [];
    const lease = await take(store, (e) => lost.push(e));
    // Another server overwrites the lease (e.g. after a long pause of server-a).
    fake.put(BUCKET, LEASE, Buffer.from('{}'), {
      'wakit-record': JSON.stringify({ holder: 'server-b', acquiredAt: '', expiresAt: '' }),
    });
    await waitFor(() => lost.length > 0);
    await new Promise((r) => setTimeout(r, 400));
    expect(lost).to.have.length(1);
    expect(isWakitError(lost[0], 'SESSION_LEASED')).to.equal(true);
    expect(lease.lost).to.equal(true);
    expect(lines.some((l) => l.includes('session lease lost'))).to.equal(true);
    await lease.release();
    expect(fake.get(BUCKET, LEASE)).to.not.equal(undefined); // not ours to delete
  });

  it('a renewal that succeeded but answered 412 (retried after a lost response) keeps the lease', async () => {
    const { store } = server('server-a', { ttlMs: 2_000, renewMs: 150 });
    const lost: Error[] = [];
    const lease = await take(store, (e) => lost.push(e));
    fake.fault({ op: 'upload', match: 'lease.json', kind: 'commit-then-fail' });
    await waitFor(
      () => fake.requests.filter((r) => r.query.name === LEASE && r.status === 200).length >= 3,
    );
    expect(fake.requests.some((r) => r.query.name === LEASE && r.status === 412)).to.equal(true);
    expect(lost).to.have.length(0);
    expect(lease.lost).to.equal(false);
  });

  it('keeps the lease through a transient renewal failure', async () => {
    const { store, lines } = server('server-a', { ttlMs: 2_000, renewMs: 150 });
    const lost: Error[] = [];
    const lease = await take(store, (e) => lost.push(e));
    fake.fault({ op: 'upload', match: 'lease.json', kind: 'fail', status: 503 });
    await waitFor(() => lines.some((l) => l.includes('renewal failed')));
    const generation = fake.get(BUCKET, LEASE)!.generation;
    await waitFor(() => fake.get(BUCKET, LEASE)!.generation > generation);
    expect(lost).to.have.length(0);
    expect(lease.lost).to.equal(false);
  });

  it('is lost when it cannot be renewed before it expires', async () => {
    const { store } = server('server-a', { ttlMs: 1_000, renewMs: 200 });
    const lost: Error[] = [];
    await take(store, (e) => lost.push(e));
    fake.fault({ op: 'upload', match: 'lease.json', kind: 'fail', status: 503, times: 100 });
    await waitFor(() => lost.length > 0);
    expect((lost[0] as WakitError).details!.reason).to.match(/expired/);
  });

  it('wraps storage failures while acquiring as SESSION_STORE_ERROR', async () => {
    fake.fault({ op: 'metadata', match: 'lease.json', kind: 'fail', status: 403 });
    const error = await server('server-a')
      .store.acquire('alice')
      .catch((e: unknown) => e);
    expect(isWakitError(error, 'SESSION_STORE_ERROR')).to.equal(true);
    expect((error as WakitError).details!.status).to.equal(403);
  });

  describe('acquireWithRetry', () => {
    it('fails at once with onLeased: fail', async () => {
      await take(server('server-a', { ttlMs: 60_000, renewMs: 10_000 }).store);
      const error = await acquireWithRetry(server('server-b').store, 'alice', {
        onLeased: 'fail',
        retryMs: 50,
      }).catch((e: unknown) => e);
      expect(isWakitError(error, 'SESSION_LEASED')).to.equal(true);
    });

    it('waits until the lease lapses with onLeased: wait, reporting each SESSION_LEASED', async () => {
      const a = await take(server('server-a', { ttlMs: 1_000, renewMs: 900 }).store);
      a.supersede();
      const waits: WakitError[] = [];
      const lease = await acquireWithRetry(
        server('server-b', { ttlMs: 1_000, renewMs: 200 }).store,
        'alice',
        {
          onLeased: 'wait',
          retryMs: 100,
          onWaiting: (e) => waits.push(e),
        },
      );
      leases.push(lease);
      expect(waits.length).to.be.greaterThan(0);
      expect(waits[0].details!.holder).to.equal('server-a');
      expect(record()!.holder).to.equal('server-b');
    });

    it('stops waiting when aborted, throwing the last SESSION_LEASED', async () => {
      await take(server('server-a', { ttlMs: 60_000, renewMs: 10_000 }).store);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const error = await acquireWithRetry(server('server-b').store, 'alice', {
        onLeased: 'wait',
        retryMs: 50,
        signal: controller.signal,
      }).catch((e: unknown) => e);
      expect(isWakitError(error, 'SESSION_LEASED')).to.equal(true);
    });

    it('works with the local store (no-op lease) and passes other errors through', async () => {
      const local = new LocalSessionStore(dir);
      const lease = await acquireWithRetry(local, 'alice', { onLeased: 'wait', retryMs: 50 });
      await lease.release();
      fake.fault({ op: 'metadata', match: 'lease.json', kind: 'fail', status: 500 });
      const error = await acquireWithRetry(server('server-b').store, 'alice', {
        onLeased: 'wait',
        retryMs: 50,
      }).catch((e: unknown) => e);
      expect(isWakitError(error, 'SESSION_STORE_ERROR')).to.equal(true);
    });
  });

  it('default holder ids name the host and process and differ per call', () => {
    const a = defaultHolderId();
    expect(a).to.include(`:${process.pid}:`);
    expect(defaultHolderId()).to.not.equal(a);
  });
});
