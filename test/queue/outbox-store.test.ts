import { expect } from 'chai';
import Database from 'better-sqlite3';
import sinon from 'sinon';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryOutbox } from '../../src/queue/outbox/memory-outbox.js';
import type { OutboxEntry, OutboxStore } from '../../src/queue/outbox/outbox-store.js';
import { SqliteOutbox } from '../../src/queue/outbox/sqlite-outbox.js';
import { RedisServer } from '../helpers/redis-server.js';
import { redisOutbox } from '../helpers/redis-outbox.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function entry(n: number, extra: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    id: `id-${String(n).padStart(3, '0')}`,
    client: 'bot',
    account: '111@c.us',
    chatId: '222@c.us',
    kind: 'text',
    priority: 'normal',
    content: JSON.stringify({ type: 'text', text: `m${n}` }),
    createdAt: 1_000 + n,
    ...extra,
  };
}

async function rejection(
  promise: Promise<unknown>,
): Promise<{ code?: string; status?: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; status?: number; message: string };
  }
  throw new Error('expected a rejection');
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'wakit-outbox-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let redis: RedisServer | undefined;
let prefixes = 0;

const adapters: Array<[string, () => OutboxStore]> = [
  ['memory', () => new MemoryOutbox()],
  [
    'sqlite',
    () =>
      new SqliteOutbox({
        file: path.join(dir, 'o.db'),
        durability: 'default',
        onError: () => {},
      }),
  ],
  // A fresh key prefix per test: the same server, an empty outbox.
  ['redis', () => redisOutbox(redis!.url, `contract${++prefixes}`)],
];

for (const [name, make] of adapters) {
  describe(`OutboxStore contract (${name})`, () => {
    if (name === 'redis') {
      before(async () => {
        redis = await RedisServer.start();
      });
      after(() => redis?.dispose());
    }
    let store: OutboxStore;
    beforeEach(() => {
      store = make();
    });
    afterEach(() => store.close());

    it('appends, gets and lists newest first with filters and cursor pages', async () => {
      for (let n = 1; n <= 5; n++) await store.append(entry(n, n === 5 ? { client: 'other' } : {}));
      expect((await store.get('id-002'))?.status).to.equal('queued');
      expect(await store.get('nope')).to.equal(undefined);
      const first = await store.list({ clients: ['bot'], limit: 2 });
      expect(first.items.map((i) => i.id)).to.deep.equal(['id-004', 'id-003']);
      const second = await store.list({ clients: ['bot'], limit: 2, cursor: first.next });
      expect(second.items.map((i) => i.id)).to.deep.equal(['id-002', 'id-001']);
      expect(second.next).to.equal(undefined);
      const since = await store.list({ since: 1_004, limit: 10 });
      expect(since.items.map((i) => i.id)).to.deep.equal(['id-005', 'id-004']);
      store.update('id-003', {
        status: 'sent',
        attempts: 1,
        updatedAt: 2_000,
        messageId: 'wa-3',
        sentAt: 2_000,
      });
      await tick();
      await tick();
      const sent = await store.list({ status: 'sent', limit: 10 });
      expect(sent.items.map((i) => i.id)).to.deep.equal(['id-003']);
      expect(sent.items[0]?.messageId).to.equal('wa-3');
    });

    it('takes status changes by the seq its append gave', async () => {
      const { seq } = await store.append(entry(1));
      await store.append(entry(2));
      const sent = { attempts: 1, messageId: 'wa-1', sentAt: 2_000 };
      store.update('id-001', { ...sent, status: 'sent', updatedAt: 2_000 }, seq);
      store.update('id-001', { ...sent, status: 'read', updatedAt: 2_100, ack: 3 }, seq);
      await store.committed();
      const read = await store.get('id-001');
      expect([read?.status, read?.ack, read?.messageId]).to.deep.equal(['read', 3, 'wa-1']);
      expect((await store.get('id-002'))?.status).to.equal('queued');
    });

    it('open() lists only queued and sending entries in acceptance order', async () => {
      for (let n = 1; n <= 4; n++) await store.append(entry(n));
      store.update('id-001', { status: 'sending', attempts: 1, updatedAt: 2_000 });
      store.update('id-002', {
        status: 'failed',
        attempts: 1,
        updatedAt: 2_000,
        error: { code: 'SEND_FAILED' as never, message: 'x' },
      });
      store.update('id-004', { status: 'sent', attempts: 1, updatedAt: 2_000, messageId: 'w' });
      await tick();
      await tick();
      const open = await store.open('bot');
      expect(open.map((e) => [e.id, e.status])).to.deep.equal([
        ['id-001', 'sending'],
        ['id-003', 'queued'],
      ]);
      expect(await store.open('other')).to.have.length(0);
    });

    it('lists by every kind of status (waiting, failed, finished), newest first per client', async () => {
      for (let n = 1; n <= 6; n++) await store.append(entry(n, n === 6 ? { client: 'other' } : {}));
      const failed = { code: 'SEND_FAILED' as never, message: 'x' };
      store.update('id-001', { status: 'failed', attempts: 1, updatedAt: 2_000, error: failed });
      store.update('id-002', { status: 'sending', attempts: 1, updatedAt: 2_000 });
      store.update('id-003', { status: 'failed', attempts: 1, updatedAt: 2_000, error: failed });
      store.update('id-006', { status: 'failed', attempts: 1, updatedAt: 2_000, error: failed });
      await tick();
      await tick();
      const ids = async (status: 'queued' | 'sending' | 'failed' | 'read', clients?: string[]) =>
        (await store.list({ status, clients, limit: 10 })).items.map((i) => i.id);
      expect(await ids('failed', ['bot'])).to.deep.equal(['id-003', 'id-001']);
      expect(await ids('failed')).to.deep.equal(['id-006', 'id-003', 'id-001']);
      expect(await ids('queued', ['bot'])).to.deep.equal(['id-005', 'id-004']);
      expect(await ids('sending')).to.deep.equal(['id-002']);
      expect(await ids('read')).to.deep.equal([]);
    });

    it('round-trips media bytes', async () => {
      const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
      await store.append(entry(1, { media: bytes }));
      expect((await store.media('id-001'))?.equals(bytes)).to.equal(true);
      expect(await store.media('id-404')).to.equal(undefined);
    });

    it('dedupes an idempotency key within its scope only', async () => {
      const idem = { scope: 's1', key: 'k', hash: 'h1' };
      const a = await store.append(entry(1, { idempotency: idem }));
      expect(a.id).to.equal('id-001');
      expect(a.duplicateOf).to.equal(undefined);
      const b = await store.append(entry(2, { idempotency: { ...idem, hash: 'h2' } }));
      expect(b.duplicateOf).to.deep.equal({ id: 'id-001', hash: 'h1' });
      expect(await store.get('id-002')).to.equal(undefined);
      const c = await store.append(entry(3, { idempotency: { ...idem, scope: 's2' } }));
      expect(c.id).to.equal('id-003');
      expect(c.seq).to.be.greaterThan(a.seq!);
    });

    it('pages, counts and fails the waiting sends of one client and priority in acceptance order', async () => {
      const seqs: number[] = [];
      for (let n = 1; n <= 7; n++) {
        const priority = n % 2 === 0 ? 'reply' : 'bulk'; // bulk 1 3 5 7, reply 2 4 6
        const client = n === 7 ? 'other' : 'bot';
        seqs.push((await store.append(entry(n, { priority, client }))).seq!);
      }
      expect(seqs).to.deep.equal([...seqs].sort((x, y) => x - y));
      store.update('id-003', { status: 'sent', attempts: 1, updatedAt: 2_000 });
      const bulk = { client: 'bot', priority: 'bulk' as const, after: 0 };
      const first = await store.openPage(bulk, 1);
      expect(first.map((e) => [e.id, e.seq, e.status])).to.deep.equal([
        ['id-001', seqs[0], 'queued'],
      ]);
      expect(first[0].content).to.equal(entry(1).content);
      const rest = await store.openPage({ ...bulk, after: first[0].seq }, 10);
      expect(rest.map((e) => e.id)).to.deep.equal(['id-005']); // 003 is sent, 007 another client's
      expect(await store.countOpen('bot')).to.deep.equal({ reply: 3, normal: 0, bulk: 2 });
      const failed = await store.failOpen(
        { client: 'bot', priority: 'reply', after: seqs[1] },
        {
          updatedAt: 3_000,
          error: { code: 'SESSION_EXPIRED', message: 'gone' },
          except: ['id-006'],
        },
      );
      expect(failed.map((r) => [r.id, r.status, r.error?.code])).to.deep.equal([
        ['id-004', 'failed', 'SESSION_EXPIRED'],
      ]);
      expect((await store.get('id-004'))?.error).to.deep.equal({
        code: 'SESSION_EXPIRED',
        message: 'gone',
      });
      expect((await store.get('id-002'))?.status).to.equal('queued');
      expect((await store.get('id-006'))?.status).to.equal('queued');
      expect(await store.countOpen('bot')).to.deep.equal({ reply: 2, normal: 0, bulk: 2 });
    });

    it('prunes finished entries by count and by age, never unfinished ones', async () => {
      for (let n = 1; n <= 6; n++) await store.append(entry(n));
      for (const n of [1, 2, 3, 4])
        store.update(`id-00${n}`, { status: 'sent', attempts: 1, updatedAt: 1_000 + n });
      await tick();
      await tick();
      expect(await store.prune({ maxCount: 2, maxAgeMs: 1e12 }, 10_000)).to.equal(2);
      expect(await store.get('id-001')).to.equal(undefined);
      expect(await store.get('id-003')).to.not.equal(undefined);
      expect(await store.prune({ maxCount: 100, maxAgeMs: 1 }, 1e9)).to.equal(2);
      const left = (await store.list({ limit: 10 })).items.map((i) => i.id);
      expect(left).to.deep.equal(['id-006', 'id-005']);
    });
  });
}

describe('SqliteOutbox faults', () => {
  it('creates the file 0600 and a reopen sees everything committed', async () => {
    const file = path.join(dir, 'a.db');
    const one = new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    await one.append(entry(1));
    await one.append(entry(2));
    one.update('id-001', { status: 'sent', attempts: 1, updatedAt: 5, messageId: 'wa' });
    await one.close();
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const two = new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    expect((await two.get('id-001'))?.messageId).to.equal('wa');
    expect((await two.open('bot')).map((e) => e.id)).to.deep.equal(['id-002']);
    await two.close();
  });

  it('refuses a garbage file with STORAGE_CORRUPT naming it and leaves it untouched', () => {
    const file = path.join(dir, 'bad.db');
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(file, garbage);
    let error: { code?: string; message: string } | undefined;
    try {
      new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    } catch (e) {
      error = e as { code?: string; message: string };
    }
    expect(error?.code).to.equal('STORAGE_CORRUPT');
    expect(error?.message).to.contain('bad.db');
    expect(readFileSync(file).equals(garbage)).to.equal(true);
  });

  it('rejects appends with STORAGE_FULL (507) when full and keeps what is stored', async () => {
    const file = path.join(dir, 'full.db');
    const store = new SqliteOutbox({
      file,
      durability: 'default',
      onError: () => {},
      maxPages: 12,
    });
    await store.append(entry(1));
    const big = 'x'.repeat(200_000);
    const error = await rejection(
      store.append(entry(2, { content: JSON.stringify({ type: 'text', text: big }) })),
    );
    expect(error.code).to.equal('STORAGE_FULL');
    expect(error.status).to.equal(507);
    expect((await store.get('id-001'))?.id).to.equal('id-001');
    expect(await store.get('id-002')).to.equal(undefined);
    await store.close();
  });
});

describe('SqliteOutbox writes', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    // Timers and Date only: the group commit's setImmediate stays real.
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 10_000 });
  });
  afterEach(() => clock.restore());

  it('writes sent with the next commit, and delivery progress once per send when 250 ms old', async () => {
    const file = path.join(dir, 'w.db');
    const store = new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    const disk = new Database(file, { readonly: true });
    const onDisk = (id: string): unknown =>
      disk.prepare('SELECT status, ack FROM sends WHERE id = ?').get(id);
    const change = (status: 'sent' | 'delivered' | 'read', ack?: number) => ({
      status,
      attempts: 1,
      updatedAt: Date.now(),
      messageId: 'wa-1',
      sentAt: 10_000,
      ...(ack === undefined ? {} : { ack }),
    });
    try {
      await store.append(entry(1));
      store.update('id-001', change('sent'));
      store.update('id-001', change('delivered', 2));
      await store.append(entry(2)); // a commit made for another accept
      expect(onDisk('id-001')).to.deep.equal({ status: 'sent', ack: null });
      clock.tick(100);
      store.update('id-001', change('read', 3));
      await store.append(entry(3));
      expect(onDisk('id-001')).to.deep.equal({ status: 'sent', ack: null });
      clock.tick(150); // 250 ms after the first progress: one write, the latest state
      await tick();
      expect(onDisk('id-001')).to.deep.equal({ status: 'read', ack: 3 });
      // A change carrying another send's seq changes neither send.
      const { seq } = await store.append(entry(4));
      store.update('id-001', change('sent'), seq);
      store.update('id-004', change('sent'), seq! - 1);
      await store.append(entry(5));
      expect([onDisk('id-001'), onDisk('id-003'), onDisk('id-004')]).to.deep.equal([
        { status: 'read', ack: 3 },
        { status: 'queued', ack: null },
        { status: 'queued', ack: null },
      ]);
      // Reads through the store see every change at once.
      store.update('id-002', change('sent'));
      store.update('id-002', change('delivered', 2));
      expect((await store.get('id-002'))?.status).to.equal('delivered');
      expect(onDisk('id-002')).to.deep.equal({ status: 'delivered', ack: 2 });
    } finally {
      disk.close();
      await store.close();
    }
  });
});

describe('SqliteOutbox outcome log', () => {
  const sent = (messageId: string) => ({
    status: 'sent' as const,
    attempts: 1,
    updatedAt: 5_000,
    messageId,
    sentAt: 5_000,
  });
  const statusOnDisk = (file: string, id: string): unknown => {
    const disk = new Database(file, { readonly: true });
    try {
      return disk.prepare('SELECT status, message_id FROM sends WHERE id = ?').get(id);
    } finally {
      disk.close();
    }
  };

  it('an outcome not yet group-committed survives a crash: the next open writes it, 0600', async () => {
    const file = path.join(dir, 'o.db');
    const crashed = new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    await crashed.append(entry(1));
    await crashed.append(entry(2));
    crashed.update('id-001', sent('wa-1'));
    await crashed.committed(); // what the queue waits for before its next send: no commit needed
    // Nothing of it is in the database yet; the process "dies" here (its commit never runs).
    expect(statusOnDisk(file, 'id-001')).to.deep.equal({ status: 'queued', message_id: null });
    expect(statSync(`${file}-outcomes`).mode & 0o777).to.equal(0o600);
    const reopened = new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    expect(statusOnDisk(file, 'id-001')).to.deep.equal({ status: 'sent', message_id: 'wa-1' });
    expect(readFileSync(`${file}-outcomes`, 'utf8')).to.equal('');
    expect((await reopened.open('bot')).map((e) => e.id)).to.deep.equal(['id-002']);
    await reopened.close();
    await crashed.close();
  });

  it('a commit empties the log; what is left is written only onto open sends, a torn line ignored', async () => {
    const file = path.join(dir, 'p.db');
    const store = new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    await store.append(entry(1));
    store.update('id-001', sent('wa-1'));
    store.update('id-001', { ...sent('wa-1'), status: 'read', ack: 3 });
    await store.append(entry(2)); // the next group commit carries the outcome
    expect(readFileSync(`${file}-outcomes`, 'utf8')).to.equal('');
    await store.close();
    // A stale line (a crash between a commit and the log's truncation) and a torn one.
    writeFileSync(
      `${file}-outcomes`,
      JSON.stringify(['id-001', { ...sent('wa-x'), status: 'failed' }]) + '\n["id-002",{"sta',
    );
    const reopened = new SqliteOutbox({ file, durability: 'default', onError: () => {} });
    expect(statusOnDisk(file, 'id-001')).to.deep.equal({ status: 'read', message_id: 'wa-1' });
    expect(statusOnDisk(file, 'id-002')).to.deep.equal({ status: 'queued', message_id: null });
    await reopened.close();
  });

  it('with durability fsync there is no log: committed() commits the outcome at once', async () => {
    const file = path.join(dir, 'f.db');
    const store = new SqliteOutbox({ file, durability: 'fsync', onError: () => {} });
    await store.append(entry(1));
    store.update('id-001', sent('wa-1'));
    await store.committed();
    expect(statusOnDisk(file, 'id-001')).to.deep.equal({ status: 'sent', message_id: 'wa-1' });
    expect(() => statSync(`${file}-outcomes`)).to.throw(/ENOENT/);
    await store.close();
  });
});
