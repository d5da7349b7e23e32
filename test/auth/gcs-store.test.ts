import { expect } from 'chai';
import { stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { GcsSessionStore, type SessionPointer } from '../../src/auth/gcs-store.js';
import { isWakitError } from '../../src/errors/index.js';
import { FakeGcsServer } from '../helpers/fake-gcs-server.js';
import { BUCKET, captureLogger, remoteConfig, tempDir } from './auth-helpers.js';

const PREFIX = 'wakit/sessions/alice';

describe('GcsSessionStore (against the fake GCS server)', () => {
  let fake: FakeGcsServer;
  let dir: string;
  let cleanup: () => Promise<void>;
  let lines: string[];
  let store: GcsSessionStore;

  function makeStore(
    options: { keepGenerations?: number; resumableThreshold?: number } = {},
  ): GcsSessionStore {
    const captured = captureLogger();
    lines = captured.lines;
    return new GcsSessionStore(
      remoteConfig(
        dir,
        options.keepGenerations === undefined ? {} : { keepGenerations: options.keepGenerations },
      ),
      captured.logger,
      {
        storage: fake.storage(),
        ...(options.resumableThreshold === undefined
          ? {}
          : { resumableThreshold: options.resumableThreshold }),
      },
    );
  }

  function pointer(): SessionPointer {
    const object = fake.get(BUCKET, `${PREFIX}/current.json`);
    expect(object, 'current.json').to.not.equal(undefined);
    return JSON.parse(object!.data.toString('utf8')) as SessionPointer;
  }

  function backups(): string[] {
    return fake.list(BUCKET, `${PREFIX}/backups/`).map((o) => o.name);
  }

  beforeEach(async () => {
    fake = await FakeGcsServer.start();
    ({ dir, cleanup } = await tempDir());
    store = makeStore();
  });

  afterEach(async () => {
    await fake.close();
    await cleanup();
  });

  it('round-trips write, read, exists and delete', async () => {
    const session = randomBytes(2048);
    expect(await store.exists('alice')).to.equal(false);
    expect(await store.read('alice')).to.equal(null);

    await store.write('alice', session);
    expect(await store.exists('alice')).to.equal(true);
    expect((await store.read('alice'))!.equals(session)).to.equal(true);
    expect(await store.exists('bob')).to.equal(false);

    const work = await store.workDir('alice');
    await store.delete('alice');
    expect(await store.exists('alice')).to.equal(false);
    expect(await store.read('alice')).to.equal(null);
    expect(fake.list(BUCKET, `${PREFIX}/`)).to.deep.equal([]);
    await stat(work).then(
      () => expect.fail('work dir should be gone'),
      (error: NodeJS.ErrnoException) => expect(error.code).to.equal('ENOENT'),
    );
    await store.delete('alice'); // idempotent
  });

  it('uses the documented bucket layout', async () => {
    await store.write('alice', Buffer.from('one'));
    const names = fake.list(BUCKET).map((o) => o.name);
    expect(names).to.have.length(2);
    expect(names).to.include(`${PREFIX}/current.json`);
    expect(names.find((n) => n !== `${PREFIX}/current.json`)).to.match(
      /^wakit\/sessions\/alice\/backups\/\d{15}-[0-9a-f]{8}\.bin$/,
    );
    const ref = pointer().backups[0];
    const object = fake.get(BUCKET, ref.object)!;
    expect(ref.generation).to.equal(object.generation);
    expect(ref.md5Hash).to.equal(object.md5Hash);
    expect(ref.crc32c).to.equal(object.crc32c);
  });

  it('writes large sessions with resumable uploads and small ones with multipart uploads', async () => {
    store = makeStore({ resumableThreshold: 1024 });
    const big = randomBytes(300 * 1024);
    await store.write('alice', Buffer.from('small'));
    await store.write('alice', big);
    const uploads = fake.requests.filter(
      (r) => r.path.startsWith('/upload/') && r.query.name?.includes('/backups/'),
    );
    expect(uploads.map((r) => r.query.uploadType)).to.deep.equal([
      'multipart',
      'resumable',
      'resumable',
    ]);
    expect((await store.read('alice'))!.equals(big)).to.equal(true);
  });

  it('keeps the newest 1 + keepGenerations backups and deletes older ones', async () => {
    store = makeStore({ keepGenerations: 2 });
    const written: Buffer[] = [];
    for (let i = 0; i < 5; i++) {
      written.push(Buffer.from(`session-${i}`));
      await store.write('alice', written[i]);
    }
    const refs = pointer().backups;
    expect(refs).to.have.length(3);
    expect(backups()).to.have.members(refs.map((r) => r.object));
    expect(refs.map((r) => fake.get(BUCKET, r.object)!.data.toString())).to.deep.equal([
      'session-4',
      'session-3',
      'session-2',
    ]);
    expect((await store.read('alice'))!.toString()).to.equal('session-4');
  });

  for (const kind of ['corrupt', 'truncate', 'fail'] as const) {
    for (const resumable of [false, true]) {
      it(`a ${kind} ${resumable ? 'resumable' : 'multipart'} upload never replaces the good backup`, async () => {
        store = makeStore({ resumableThreshold: resumable ? 0 : 1 << 30 });
        await store.write('alice', Buffer.from('good session'));
        const before = pointer();

        fake.fault({ op: 'upload', match: '/backups/', kind });
        const error = await store
          .write('alice', Buffer.from('new session'))
          .catch((e: unknown) => e);
        expect(isWakitError(error, 'SESSION_STORE_ERROR'), String(error)).to.equal(true);

        expect(pointer()).to.deep.equal(before);
        expect(backups()).to.deep.equal([before.backups[0].object]);
        expect((await store.read('alice'))!.toString()).to.equal('good session');
      });
    }
  }

  it('a pointer write that succeeded but answered 412 (retried after a lost response) is kept', async () => {
    await store.write('alice', Buffer.from('first'));
    fake.fault({ op: 'upload', match: 'current.json', kind: 'commit-then-fail' });
    await store.write('alice', Buffer.from('second'));
    expect((await store.read('alice'))!.toString()).to.equal('second');
    expect(backups()).to.have.members(pointer().backups.map((r) => r.object));
  });

  it('falls back to the previous backup when the current one is corrupt at rest', async () => {
    await store.write('alice', Buffer.from('older session'));
    await store.write('alice', Buffer.from('newest session'));
    const [newest] = pointer().backups;
    fake.corruptStored(BUCKET, newest.object);

    expect((await store.read('alice'))!.toString()).to.equal('older session');
    expect(lines.some((l) => l.includes('older backup'))).to.equal(true);
  });

  it('falls back when the current backup is missing or its download is damaged in transit', async () => {
    await store.write('alice', Buffer.from('older session'));
    await store.write('alice', Buffer.from('newest session'));
    fake.fault({ op: 'download', kind: 'corrupt' });
    expect((await store.read('alice'))!.toString()).to.equal('older session');

    fake.objects.delete(`${BUCKET}/${pointer().backups[0].object}`);
    expect((await store.read('alice'))!.toString()).to.equal('older session');
  });

  it('throws SESSION_STORE_ERROR when no backup is intact, and on transient read failures', async () => {
    await store.write('alice', Buffer.from('only session'));
    fake.fault({ op: 'download', kind: 'fail', status: 503 });
    const transient = await store.read('alice').catch((e: unknown) => e);
    expect(isWakitError(transient, 'SESSION_STORE_ERROR')).to.equal(true);
    expect((transient as { details: { status: number } }).details.status).to.equal(503);

    fake.corruptStored(BUCKET, pointer().backups[0].object);
    const none = await store.read('alice').catch((e: unknown) => e);
    expect(isWakitError(none, 'SESSION_STORE_ERROR')).to.equal(true);
    expect(String((none as Error).message)).to.match(/no intact session backup/);
  });

  it('reports an unreachable bucket as SESSION_STORE_ERROR, not as "no session"', async () => {
    fake.fault({ op: 'metadata', kind: 'fail', status: 500 });
    const error = await store.exists('alice').catch((e: unknown) => e);
    expect(isWakitError(error, 'SESSION_STORE_ERROR')).to.equal(true);
  });

  it('serialises concurrent writes of one client', async () => {
    await Promise.all([1, 2, 3].map((i) => store.write('alice', Buffer.from(`w${i}`))));
    expect(pointer().backups.map((r) => fake.get(BUCKET, r.object)!.data.toString())).to.deep.equal(
      ['w3', 'w2', 'w1'],
    );
  });

  it('never logs session bytes', async () => {
    const secret = Buffer.from('SECRET-SESSION-BYTES-0123456789');
    await store.write('alice', secret);
    await store.write('alice', secret);
    fake.corruptStored(BUCKET, pointer().backups[0].object);
    expect((await store.read('alice'))!.equals(secret)).to.equal(true);
    fake.corruptStored(BUCKET, pointer().backups[1].object);
    await store.read('alice').catch(() => undefined);
    expect(lines.length).to.be.greaterThan(0);
    const all = lines.join('\n');
    expect(all).to.not.include(secret.toString());
    expect(all).to.not.include(secret.toString('base64'));
  });

  it('gives a private 0700 work directory under dataPath/<client>', async () => {
    const work = await store.workDir('alice');
    expect(work).to.equal(path.join(dir, 'alice'));
    expect((await stat(work)).mode & 0o777).to.equal(0o700);
  });
});

describe('GcsSessionStore pointer races', () => {
  it('a write that loses the pointer race fails with SESSION_LEASED and leaves the winner intact', async () => {
    const fake = await FakeGcsServer.start();
    const { dir, cleanup } = await tempDir();
    try {
      const a = new GcsSessionStore(remoteConfig(dir), captureLogger().logger, {
        storage: fake.storage(),
      });
      const b = new GcsSessionStore(remoteConfig(dir), captureLogger().logger, {
        storage: fake.storage(),
      });
      await a.write('alice', Buffer.from('first'));
      fake.fault({ op: 'upload', match: 'current.json', kind: 'delay', delayMs: 300 });
      const slow = a.write('alice', Buffer.from('from a')).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      await b.write('alice', Buffer.from('from b'));
      const error = await slow;
      expect(isWakitError(error, 'SESSION_LEASED'), String(error)).to.equal(true);
      expect((await a.read('alice'))!.toString()).to.equal('from b');
      const names = fake
        .list(BUCKET, `${PREFIX}/backups/`)
        .map((o) => fake.get(BUCKET, o.name)!.data.toString());
      expect(names).to.have.members(['first', 'from b']);
    } finally {
      await fake.close();
      await cleanup();
    }
  });
});
