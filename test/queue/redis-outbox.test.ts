import { expect } from 'chai';
import type { WakitError } from '../../src/errors/index.js';
import type { AppendedNotice, OutboxEntry } from '../../src/queue/outbox/outbox-store.js';
import type { RedisOutbox } from '../../src/cluster/outbox/redis-outbox.js';
import { RedisServer } from '../helpers/redis-server.js';
import { redisOutbox } from '../helpers/redis-outbox.js';

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

const sent = (messageId: string) => ({
  status: 'sent' as const,
  attempts: 1,
  updatedAt: 5_000,
  messageId,
  sentAt: 5_000,
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('RedisOutbox (a real redis-server)', function () {
  this.timeout(30_000);
  let server: RedisServer;
  let prefix = 0;
  const stores: RedisOutbox[] = [];
  const open = (options: Parameters<typeof redisOutbox>[2] = {}, keyPrefix = `r${prefix}`) => {
    const store = redisOutbox(server.url, keyPrefix, options);
    stores.push(store);
    return store;
  };

  before(async () => {
    server = await RedisServer.start();
  });
  beforeEach(async () => {
    prefix++;
    if (!server.running) await server.restart();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  after(() => server.dispose());

  it("keeps bypassBudget with the send and the governor's deferral in its hash: an open send comes back with both", async () => {
    const store = open();
    await store.append(entry(1, { bypassBudget: true }));
    await store.append(entry(2));
    store.defer('id-002', { budget: 'perHour', dueAt: 9_000 });
    await until(async () => (await store.open('bot'))[1]?.deferral !== undefined);
    const [first, second] = await store.open('bot');
    expect(first).to.include({ id: 'id-001', bypassBudget: true });
    expect(first.deferral).to.equal(undefined);
    expect(second.bypassBudget).to.equal(undefined);
    expect(second.deferral).to.deep.equal({ budget: 'perHour', dueAt: 9_000 });
  });

  it('refuses an append within a second while Redis is down, storing nothing, and accepts again after', async () => {
    const store = open();
    await store.append(entry(1));
    await server.stop({ hard: true });
    const started = Date.now();
    let error: WakitError | undefined;
    try {
      await store.append(entry(2));
    } catch (e) {
      error = e as WakitError;
    }
    expect(error?.code).to.equal('STORAGE_UNAVAILABLE');
    expect(error?.status).to.equal(503);
    expect(Date.now() - started).to.be.below(1_000);
    await server.restart();
    await until(async () => {
      try {
        await store.append(entry(3));
        return true;
      } catch {
        return false;
      }
    });
    expect(await store.get('id-002')).to.equal(undefined);
    expect((await store.open('bot')).map((e) => e.id)).to.deep.equal(['id-001', 'id-003']);
  });

  it('keeps status changes made while Redis is down and writes them once it is back; committed() waits', async () => {
    const errors: WakitError[] = [];
    const store = open({ onError: (error) => errors.push(error) });
    for (let n = 1; n <= 3; n++) await store.append(entry(n));
    await server.stop({ hard: true });
    store.update('id-001', sent('wa-1'));
    store.update('id-002', {
      ...sent('wa-2'),
      status: 'failed',
      error: { code: 'ENGINE_ERROR', message: 'x' },
    });
    let committed = false;
    void store.committed().then(() => (committed = true));
    await new Promise((resolve) => setTimeout(resolve, 700)); // several retries fail meanwhile
    expect(committed).to.equal(false);
    expect(errors.map((e) => e.code)).to.deep.equal(['STORAGE_UNAVAILABLE']); // once per outage
    store.update('id-001', { ...sent('wa-1'), status: 'delivered', ack: 2 }); // newest per send wins
    await server.restart();
    await until(() => committed);
    const other = open({ nodeId: 'other' });
    expect(await other.get('id-001')).to.include({
      status: 'delivered',
      ack: 2,
      messageId: 'wa-1',
    });
    expect((await other.get('id-002'))?.error).to.deep.equal({
      code: 'ENGINE_ERROR',
      message: 'x',
    });
    expect((await other.open('bot')).map((e) => e.id)).to.deep.equal(['id-003']);
  });

  it('keeps every acknowledged append and outcome across a Redis crash (AOF)', async () => {
    const store = open();
    const media = Buffer.from([0, 255, 1, 254]);
    for (let n = 1; n <= 50; n++) await store.append(entry(n, n === 7 ? { media } : {}));
    store.update('id-001', sent('wa-1'));
    await store.committed();
    await server.restart({ hard: true });
    const after = open({ nodeId: 'after' });
    const waiting = await after.open('bot');
    expect(waiting).to.have.length(49);
    expect(waiting.map((e) => e.seq)).to.deep.equal(
      [...waiting.map((e) => e.seq)].sort((a, b) => a - b),
    );
    expect((await after.get('id-001'))?.status).to.equal('sent');
    expect((await after.media('id-007'))?.equals(media)).to.equal(true);
    const next = await after.append(entry(51));
    expect(next.seq).to.be.greaterThan(waiting.at(-1)!.seq);
  });

  it('makes idempotency keys and sequence numbers fleet-wide: two stores, one Redis', async () => {
    const a = open({ nodeId: 'a' });
    const b = open({ nodeId: 'b' });
    const idem = { scope: 'rest:bot', key: 'k1', hash: 'h1' };
    const first = await a.append(entry(1, { idempotency: idem }));
    const again = await b.append(entry(2, { idempotency: idem }));
    expect(again.duplicateOf).to.deep.equal({ id: 'id-001', hash: 'h1' });
    const racing = await Promise.all([
      a.append(entry(3, { idempotency: { ...idem, key: 'k2' } })),
      b.append(entry(4, { idempotency: { ...idem, key: 'k2' } })),
    ]);
    expect(racing.filter((r) => r.duplicateOf)).to.have.length(1);
    const seqB = (await b.append(entry(5))).seq!;
    expect(seqB).to.be.greaterThan(first.seq!);
    // The key stays while its send is kept, and goes with it when pruned.
    a.update('id-001', sent('wa-1'));
    await a.committed();
    expect((await b.append(entry(6, { idempotency: idem }))).duplicateOf?.id).to.equal('id-001');
    expect(await b.prune({ maxCount: 0, maxAgeMs: 1e12 }, Date.now())).to.equal(1);
    expect((await b.append(entry(7, { idempotency: idem }))).duplicateOf).to.equal(undefined);
  });

  it('watch() tells every node of each append for a client, marking its own', async () => {
    const a = open({ nodeId: 'a' });
    const b = open({ nodeId: 'b' });
    const seen: AppendedNotice[] = [];
    const stop = a.watch('bot', (notice) => seen.push(notice));
    a.watch('other', () => expect.fail('not this client'));
    await new Promise((resolve) => setTimeout(resolve, 100)); // subscribed
    const one = await b.append(entry(1));
    const two = await a.append(entry(2));
    await until(() => seen.length === 2);
    expect(seen).to.deep.equal([
      { client: 'bot', seq: one.seq, nodeId: 'b', own: false },
      { client: 'bot', seq: two.seq, nodeId: 'a', own: true },
    ]);
    stop();
    await b.append(entry(3));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).to.have.length(2);
  });
});
