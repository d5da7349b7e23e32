/**
 * The conversation store's contract, run against each of its three adapters: memory, SQLite (a
 * temporary file) and Redis (a real redis-server on a free port; two nodes are two connections).
 * Chat state is a compare-and-set with expiry; a chat member has one active conversation; a step
 * is appended at its index exactly once, together with its wait; timers and interrupted
 * conversations follow the wait; an ended conversation is gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { RedisConversationStore } from '../../src/cluster/conversations/redis-conversation-store.js';
import { createRedis } from '../../src/cluster/redis-connection.js';
import type {
  ConversationRecord,
  ConversationStore,
} from '../../src/conversations/store/conversation-store.js';
import { MemoryConversationStore } from '../../src/conversations/store/memory-conversation-store.js';
import { SqliteConversationStore } from '../../src/conversations/store/sqlite-conversation-store.js';
import { RedisServer } from '../helpers/redis-server.js';

interface Adapter {
  name: string;
  /** Two handles on one store (two nodes of a fleet, or the same object when in-process). */
  open(now: () => number): Promise<[ConversationStore, ConversationStore]>;
  close(): Promise<void>;
}

let redis: RedisServer | undefined;
const connections: Redis[] = [];
let dir = '';
let prefixes = 0;

async function connected(name: string): Promise<Redis> {
  const conn = createRedis({ url: redis!.url, name });
  connections.push(conn);
  if (conn.status !== 'ready') await new Promise((resolve) => conn.once('ready', resolve));
  return conn;
}

const ADAPTERS: Adapter[] = [
  {
    name: 'memory',
    open: (now) => {
      const store = new MemoryConversationStore(now);
      return Promise.resolve([store, store]);
    },
    close: () => Promise.resolve(),
  },
  {
    name: 'sqlite',
    open: (now) => {
      const file = path.join(dir, `c${++prefixes}.db`);
      return Promise.resolve([
        new SqliteConversationStore(file, now),
        new SqliteConversationStore(file, now),
      ]);
    },
    close: () => Promise.resolve(),
  },
  {
    name: 'redis',
    open: async (now) => {
      redis ??= await RedisServer.start();
      const keyPrefix = `t${++prefixes}`;
      return [
        new RedisConversationStore({ redis: await connected('test:a'), keyPrefix, now }),
        new RedisConversationStore({ redis: await connected('test:b'), keyPrefix, now }),
      ];
    },
    close: async () => {
      for (const conn of connections.splice(0)) conn.disconnect();
      await redis?.dispose();
      redis = undefined;
    },
  },
];

function record(over: Partial<ConversationRecord> = {}): ConversationRecord {
  return {
    id: `id-${Math.random().toString(36).slice(2)}`,
    client: 'bot',
    chatId: '111@lid',
    member: '',
    name: 'order',
    version: 1,
    startedAt: 1_000,
    updatedAt: 1_000,
    steps: 0,
    wait: {},
    ...over,
  };
}

for (const adapter of ADAPTERS) {
  describe(`conversation store contract: ${adapter.name}`, function () {
    this.timeout(20_000);
    let now = 10_000;
    let a: ConversationStore;
    let b: ConversationStore;

    before(() => {
      dir ||= mkdtempSync(path.join(tmpdir(), 'wakit-conv-store-'));
    });
    beforeEach(async () => {
      now = 10_000;
      [a, b] = await adapter.open(() => now);
    });
    afterEach(async () => {
      await a.close();
      if (b !== a) await b.close();
    });
    after(async () => {
      await adapter.close();
      if (adapter === ADAPTERS.at(-1) && dir) rmSync(dir, { recursive: true, force: true });
    });

    it('chat state: compare-and-set on the version, one winner of two writers, empty arrays kept', async () => {
      expect(await a.getState('bot\nc1')).to.equal(undefined);
      expect(await a.putState('bot\nc1', { n: 1, list: [] }, 0)).to.equal(1);
      // two nodes both read version 1 and write: exactly one wins
      const results = await Promise.all([
        a.putState('bot\nc1', { n: 2, list: [] }, 1),
        b.putState('bot\nc1', { n: 3, list: [] }, 1),
      ]);
      expect(results.filter((r) => r === 2)).to.have.length(1);
      expect(results.filter((r) => r === undefined)).to.have.length(1);
      const read = await b.getState('bot\nc1');
      expect(read?.version).to.equal(2);
      expect(read?.value).to.deep.equal(results[0] === 2 ? { n: 2, list: [] } : { n: 3, list: [] });
      expect(await a.putState('bot\nc1', { n: 9 }, 0), 'absent only for version 0').to.equal(
        undefined,
      );
    });

    it('chat state: 100 increments from two nodes racing lose no update', async () => {
      const bump = async (store: ConversationStore): Promise<void> => {
        for (;;) {
          const current = await store.getState('bot\ncount');
          const n = (current?.value as number | undefined) ?? 0;
          if ((await store.putState('bot\ncount', n + 1, current?.version ?? 0)) !== undefined)
            return;
        }
      };
      await Promise.all(Array.from({ length: 100 }, (_, i) => bump(i % 2 ? a : b)));
      expect((await a.getState('bot\ncount'))?.value).to.equal(100);
    });

    it('chat state: expiry, listing by prefix, erasure', async () => {
      await a.putState('bot\nc1', 'one', 0, now + 1_000);
      await a.putState('bot\nc1\nm1', 'member', 0);
      await a.putState('bot\nc2', 'other', 0);
      await a.putState('bot2\nc1', 'other client', 0);
      const listed = await b.listStates('bot\nc1');
      expect(listed.map((s) => [s.key, s.record.value])).to.deep.equal([
        ['bot\nc1', 'one'],
        ['bot\nc1\nm1', 'member'],
      ]);
      now += 1_000;
      expect(await b.getState('bot\nc1'), 'expired').to.equal(undefined);
      expect((await b.listStates('bot\nc1')).map((s) => s.key)).to.deep.equal(['bot\nc1\nm1']);
      expect(await b.putState('bot\nc1', 'fresh', 0), 'an expired value counts as absent').to.equal(
        1,
      );
      expect(await a.deleteState('bot\nc1\nm1')).to.equal(true);
      expect(await a.deleteState('bot\nc1\nm1')).to.equal(false);
      expect((await b.listStates('bot\nc1')).map((s) => s.key)).to.deep.equal(['bot\nc1']);
    });

    it('begin: one active conversation per chat member, across nodes; get/active/list', async () => {
      const first = record({ input: { items: [], n: 1 } });
      const rival = record();
      const results = await Promise.all([a.begin(first), b.begin(rival)]);
      expect(results.filter(Boolean)).to.have.length(1);
      const winner = results[0] ? first : rival;
      expect(await b.begin(record({ member: 'm1' })), 'another member of the chat').to.equal(true);
      expect(await b.active('bot', '111@lid', '')).to.deep.equal(winner);
      expect((await a.get(first.id))?.input ?? null).to.deep.equal(
        results[0] ? { items: [], n: 1 } : null,
      );
      const other = record({ client: 'bot2', startedAt: 500 });
      await a.begin(other);
      expect((await b.list()).map((r) => r.id)[0]).to.equal(other.id);
      expect(await b.list('bot')).to.have.length(2);
      expect((await b.list('bot2')).map((r) => r.id)).to.deep.equal([other.id]);
    });

    it('append: a step at its index exactly once, with its wait; a second node at the same index fails', async () => {
      const r = record();
      await a.begin(r);
      expect(await a.append(r.id, 0, { k: 'say', h: 'x', v: 't1' }, {})).to.equal(true);
      const wait = { dueAt: now + 5_000, phase: 'remind' as const, waiting: true };
      await a.setWait(r.id, wait);
      // a timer firing on two nodes at once: both append at index 1, one wins
      const fired = await Promise.all([
        a.append(r.id, 1, { k: 'timer', v: 'remind' }, { ...wait, phase: 'expire' }),
        b.append(r.id, 1, { k: 'timer', v: 'remind' }, { ...wait, phase: 'expire' }),
      ]);
      expect(fired.filter(Boolean)).to.have.length(1);
      expect(await b.append(r.id, 3, { k: 'ext', v: 1 }, {}), 'a gap').to.equal(false);
      now += 7;
      expect(await b.append(r.id, 2, { k: 'in', v: { body: 'hi', list: [] } }, {})).to.equal(true);
      expect(await a.steps(r.id)).to.deep.equal([
        { k: 'say', h: 'x', v: 't1' },
        { k: 'timer', v: 'remind' },
        { k: 'in', v: { body: 'hi', list: [] } },
      ]);
      const head = await a.get(r.id);
      expect(head?.steps).to.equal(3);
      expect(head?.updatedAt).to.equal(now);
      expect(head?.wait, 'the wait went with the append').to.deep.equal({});
    });

    it('timers and interrupted follow the wait; end removes everything', async () => {
      const r = record();
      const s = record({ client: 'bot2' });
      await a.begin(r);
      await a.begin(s);
      expect(
        (await b.interrupted('bot')).map((x) => x.id),
        'not waiting yet',
      ).to.deep.equal([r.id]);
      await a.setWait(r.id, { dueAt: 20_000, phase: 'remind', waiting: true });
      await a.setWait(s.id, { dueAt: 30_000, phase: 'expire', waiting: true });
      expect(await b.interrupted('bot')).to.deep.equal([]);
      expect((await b.timers()).sort((x, y) => x.dueAt - y.dueAt)).to.deep.equal([
        { id: r.id, client: 'bot', dueAt: 20_000 },
        { id: s.id, client: 'bot2', dueAt: 30_000 },
      ]);
      expect(await b.timers('bot2')).to.deep.equal([{ id: s.id, client: 'bot2', dueAt: 30_000 }]);
      await a.append(r.id, 0, { k: 'in', v: 'x' }, {});
      expect(await b.timers('bot'), 'an answer clears the timer').to.deep.equal([]);
      expect((await b.interrupted('bot')).map((x) => x.id)).to.deep.equal([r.id]);
      expect(await b.end(r.id)).to.equal(true);
      expect(await a.end(r.id)).to.equal(false);
      expect(await a.get(r.id)).to.equal(undefined);
      expect(await a.active('bot', r.chatId, '')).to.equal(undefined);
      expect(await a.steps(r.id)).to.deep.equal([]);
      expect(await a.interrupted('bot')).to.deep.equal([]);
      expect(await a.list('bot')).to.deep.equal([]);
      expect(await a.begin(record()), 'the chat member is free again').to.equal(true);
    });
  });
}
