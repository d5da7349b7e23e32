/**
 * The Redis outbox's scheduled sends (docs/scheduling.md), on a real redis-server. Two outboxes on
 * one prefix, each with its own connection, are two nodes of a fleet: a send is released once
 * whichever asks, a cancel or a reschedule racing the release either takes effect or finds the
 * send gone, never both; scheduled sends are not open, are listed as `scheduled`, survive a
 * restart of Redis (AOF).
 */
import { expect } from 'chai';
import type { RedisOutbox } from '../../src/cluster/outbox/redis-outbox.js';
import type { OpenEntry, OutboxEntry } from '../../src/queue/outbox/outbox-store.js';
import { RedisServer } from '../helpers/redis-server.js';
import { redisOutbox } from '../helpers/redis-outbox.js';

const T0 = 1_800_000_000_000;

function entry(n: number, sendAt: number | undefined, extra: Partial<OutboxEntry> = {}) {
  return {
    id: `id-${String(n).padStart(3, '0')}`,
    client: 'bot',
    account: '111@c.us',
    chatId: '222@c.us',
    kind: 'text',
    priority: 'normal',
    content: JSON.stringify({ kind: 'text', text: `m${n}` }),
    createdAt: T0 - 60_000 + n,
    ...(sendAt === undefined ? {} : { sendAt }),
    ...extra,
  } satisfies OutboxEntry;
}

const ids = (rows: readonly OpenEntry[]): string[] => rows.map((row) => row.id);

describe('RedisOutbox: scheduled sends (a real redis-server, two nodes)', function () {
  this.timeout(30_000);
  let server: RedisServer;
  let prefix = 0;
  const stores: RedisOutbox[] = [];
  /** Two nodes on one outbox: separate connections, one key prefix. */
  let a: RedisOutbox;
  let b: RedisOutbox;

  before(async () => {
    server = await RedisServer.start();
  });
  beforeEach(() => {
    prefix++;
    a = redisOutbox(server.url, `s${prefix}`, { nodeId: 'n1' });
    b = redisOutbox(server.url, `s${prefix}`, { nodeId: 'n2' });
    stores.push(a, b);
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  after(() => server.dispose());

  it('journals `scheduled` with its sendAt: listed, not open, released at its time and not before', async () => {
    await a.append(entry(1, T0 + 5_000));
    await a.append(entry(2, undefined));
    const record = await b.get('id-001');
    expect(record).to.include({ status: 'scheduled', sendAt: new Date(T0 + 5_000).toISOString() });
    expect(ids(await b.open('bot'))).to.deep.equal(['id-002']);
    expect(await b.countOpen('bot')).to.deep.equal({ reply: 0, normal: 1, bulk: 0 });
    const listed = await b.list({ status: 'scheduled', limit: 10 });
    expect(listed.items.map((item) => item.id)).to.deep.equal(['id-001']);
    expect(await b.schedule.nextDue('bot')).to.equal(T0 + 5_000);
    expect(await b.schedule.nextDue('other')).to.equal(undefined);

    expect(await b.schedule.releaseDue('bot', T0 + 4_999, 10)).to.deep.equal([]);
    const [released] = await b.schedule.releaseDue('bot', T0 + 5_000, 10);
    expect(released).to.deep.include({
      id: 'id-001',
      client: 'bot',
      status: 'queued',
      sendAt: T0 + 5_000,
      content: JSON.stringify({ kind: 'text', text: 'm1' }),
    });
    expect(released.seq).to.equal(1);
    // open from now on, in acceptance order, as recovery on any node loads it
    expect(ids(await a.open('bot'))).to.deep.equal(['id-001', 'id-002']);
    expect((await a.get('id-001'))?.status).to.equal('queued');
    expect(await a.schedule.nextDue('bot')).to.equal(undefined);
    expect(await a.schedule.releaseDue('bot', T0 + 10_000, 10)).to.deep.equal([]);
  });

  it('two nodes releasing at once: each of 60 sends is released exactly once, earliest first', async () => {
    // three sends per time: equal times go in acceptance order
    for (let n = 0; n < 60; n++) await a.append(entry(n, T0 + Math.floor(n / 3) * 10));
    const byA: string[] = [];
    const byB: string[] = [];
    for (let round = 0; round < 20; round++) {
      const now = T0 + round * 10 + 5;
      const [fromA, fromB] = await Promise.all([
        a.schedule.releaseDue('bot', now, 2),
        b.schedule.releaseDue('bot', now, 2),
      ]);
      byA.push(...ids(fromA));
      byB.push(...ids(fromB));
      for (const row of [...fromA, ...fromB]) expect(row.sendAt).to.be.at.most(now);
    }
    const all = [...byA, ...byB];
    expect(all, 'each released once').to.have.length(new Set(all).size);
    expect(new Set(all).size, 'none left behind').to.equal(60);
    expect(byA.length, 'both nodes released some').to.be.greaterThan(0);
    expect(byB.length).to.be.greaterThan(0);
    expect((await a.countOpen('bot')).normal).to.equal(60);
    // a limit cutting equal times takes the first accepted
    await a.append(entry(100, T0));
    await a.append(entry(101, T0));
    await a.append(entry(99, T0));
    expect(ids(await b.schedule.releaseDue('bot', T0, 2))).to.deep.equal(['id-100', 'id-101']);
  });

  it('cancel racing the release on the other node: a send is either cancelled (never released) or released (cancel refused)', async () => {
    for (let n = 0; n < 40; n++) await a.append(entry(n, T0 + n));
    const cancels = Array.from({ length: 20 }, (_, i) => `id-${String(i * 2).padStart(3, '0')}`);
    const [released, ...records] = await Promise.all([
      a.schedule.releaseDue('bot', T0 + 100, 25),
      ...cancels.map((id) => b.schedule.cancel(id, T0 + 50)),
    ]);
    const rest = await a.schedule.releaseDue('bot', T0 + 100, 100);
    const went = new Set([...ids(released), ...ids(rest)]);
    let cancelled = 0;
    for (const [i, id] of cancels.entries()) {
      const record = records[i];
      if (record?.status === 'cancelled') {
        cancelled++;
        expect(went.has(id), `${id} cancelled and released`).to.equal(false);
        expect((await a.get(id))?.status).to.equal('cancelled');
      } else {
        expect(went.has(id), `${id} neither cancelled nor released`).to.equal(true);
        expect(record?.status).to.equal('queued');
      }
    }
    expect(went.size + cancelled).to.equal(40);
    // released before its cancel: the cancel finds it queued and leaves it so
    const after = await b.schedule.cancel([...went][0], T0 + 200);
    expect(after?.status).to.equal('queued');
    expect(await b.schedule.cancel('id-missing', T0)).to.equal(undefined);
    // the cancelled ones are finished: listed as such, pruned as any finished send
    const listed = await b.list({ status: 'cancelled', limit: 100 });
    expect(listed.items).to.have.length(cancelled);
  });

  it('a cancelled send never goes; its idempotency key still answers for it', async () => {
    const idem = { scope: 'sdk:bot', key: 'k-1', hash: 'h-1' };
    await a.append(entry(1, T0 + 1_000, { idempotency: idem }));
    expect((await b.schedule.cancel('id-001', T0))?.status).to.equal('cancelled');
    expect(await a.schedule.releaseDue('bot', T0 + 1_000_000, 10)).to.deep.equal([]);
    expect(await a.open('bot')).to.deep.equal([]);
    expect(await a.append(entry(2, T0 + 1_000, { idempotency: idem }))).to.deep.equal({
      id: 'id-001',
      duplicateOf: { id: 'id-001', hash: 'h-1' },
    });
  });

  it('reschedule: later is not released at the old time, earlier is; after the release it changes nothing', async () => {
    await a.append(entry(1, T0 + 1_000));
    await a.append(entry(2, T0 + 2_000));
    const later = await b.schedule.reschedule('id-001', T0 + 3_000, T0);
    expect(later).to.include({ status: 'scheduled', sendAt: new Date(T0 + 3_000).toISOString() });
    expect(await a.schedule.nextDue('bot')).to.equal(T0 + 2_000);
    expect(await a.schedule.releaseDue('bot', T0 + 1_500, 10)).to.deep.equal([]);
    expect(ids(await a.schedule.releaseDue('bot', T0 + 2_000, 10))).to.deep.equal(['id-002']);
    const earlier = await b.schedule.reschedule('id-001', T0 + 2_500, T0);
    expect(earlier?.sendAt).to.equal(new Date(T0 + 2_500).toISOString());
    const [moved] = await a.schedule.releaseDue('bot', T0 + 2_500, 10);
    expect(moved).to.include({ id: 'id-001', sendAt: T0 + 2_500 });
    // gone already: the record as it is (the scheduler answers MESSAGE_NOT_SCHEDULED)
    const late = await b.schedule.reschedule('id-001', T0 + 9_000, T0 + 2_600);
    expect(late).to.include({ status: 'queued', sendAt: new Date(T0 + 2_500).toISOString() });
    expect(await a.schedule.nextDue('bot')).to.equal(undefined);
    expect(await b.schedule.reschedule('id-missing', T0, T0)).to.equal(undefined);
  });

  it('scheduled sends survive a restart of Redis and are neither failed in bulk nor pruned', async () => {
    await a.append(entry(1, T0 + 1_000));
    await a.append(entry(2, undefined));
    await server.restart();
    // a node started after the restart (the others' connections are being made again)
    const c = redisOutbox(server.url, `s${prefix}`, { nodeId: 'n3' });
    stores.push(c);
    expect((await c.get('id-001'))?.status).to.equal('scheduled');
    const failed = await c.failOpen(
      { client: 'bot', priority: 'normal', after: 0 },
      { updatedAt: T0, error: { code: 'SESSION_EXPIRED', message: 'gone' } },
    );
    expect(failed.map((record) => record.id)).to.deep.equal(['id-002']);
    expect(await c.prune({ maxCount: 0, maxAgeMs: 0 }, T0 + 10_000)).to.equal(1);
    expect((await c.get('id-001'))?.status).to.equal('scheduled');
    expect(ids(await c.schedule.releaseDue('bot', T0 + 1_000, 10))).to.deep.equal(['id-001']);
  });
});
