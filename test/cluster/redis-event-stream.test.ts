import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { compareStreamIds, isStreamId, type FleetEvent } from '../../src/entries/cluster.js';
import { WakitError } from '../../src/index.js';
import { RedisEventStream } from '../../src/cluster/redis-event-stream.js';
import { RedisServer } from '../helpers/redis-server.js';

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('cluster: the fleet event stream on Redis Streams', function () {
  this.timeout(20_000);
  let redis: RedisServer;
  let admin: Redis;
  const streams: RedisEventStream[] = [];
  let prefix = '';
  let n = 0;

  function node(nodeId: string, options: { claimIdleMs?: number; maxLen?: number } = {}) {
    const stream = new RedisEventStream({
      url: redis.url,
      keyPrefix: prefix,
      nodeId,
      blockMs: 500,
      ...options,
    });
    streams.push(stream);
    return stream;
  }

  /** Resolves once the consumer group exists (it starts at the stream's end). */
  async function groupExists(group: string): Promise<void> {
    await until(async () => {
      try {
        const groups = (await admin.xinfo('GROUPS', `${prefix}:events`)) as unknown[][];
        return groups.some((g) => g[1] === group);
      } catch {
        return false;
      }
    });
  }

  before(async () => {
    redis = await RedisServer.start();
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    admin.on('error', () => undefined);
  });
  beforeEach(() => {
    prefix = `t${++n}`;
  });
  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.close()));
  });
  after(async () => {
    admin.disconnect();
    await redis.dispose();
  });

  it('publishes to <prefix>:events; every subscriber sees every node’s events in one order', async () => {
    const a = node('a');
    const b = node('b');
    const seenA: FleetEvent[] = [];
    const seenB: FleetEvent[] = [];
    a.subscribe((e) => seenA.push(e));
    b.subscribe((e) => seenB.push(e));
    await Promise.all([a.ready(), b.ready()]);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const [x, y] = await Promise.all([
        a.publish('alpha', 'message', { i }),
        b.publish('beta', 'state', { i, to: 'READY' }),
      ]);
      ids.push(x, y);
    }
    await until(() => seenA.length === 60 && seenB.length === 60);
    expect(seenA.map((e) => e.id)).to.deep.equal(seenB.map((e) => e.id));
    expect([...seenA.map((e) => e.id)].sort()).to.deep.equal([...ids].sort());
    expect(
      seenA.filter((e) => e.client === 'alpha').map((e) => (e.data as { i: number }).i),
    ).to.deep.equal([...Array(30).keys()]);
    const first = seenB[0];
    expect(first.event).to.be.oneOf(['message', 'state']);
    expect(new Date(first.at).toISOString()).to.equal(first.at);
    expect(await admin.xlen(`${prefix}:events`)).to.equal(60);
  });

  it('orders stream ids numerically (not as text) and refuses what is not one', () => {
    expect(compareStreamIds('999-0', '1000-0')).to.be.below(0);
    expect(compareStreamIds('1000-10', '1000-9')).to.be.above(0);
    expect(compareStreamIds('1000', '1000-0')).to.equal(0);
    expect(isStreamId('1767261600000-3')).to.equal(true);
    expect(isStreamId('42')).to.equal(true);
    expect(isStreamId('42-')).to.equal(false);
    expect(isStreamId('abc')).to.equal(false);
    expect(() => compareStreamIds('x', '1-0')).to.throw(RangeError);
  });

  it('skips entries wakit did not write (readers) and acknowledges them (groups)', async () => {
    const a = node('a');
    const seen: FleetEvent[] = [];
    const handled: FleetEvent[] = [];
    a.subscribe((e) => seen.push(e));
    a.consume('hooks', (e) => {
      handled.push(e);
      return Promise.resolve();
    });
    await Promise.all([a.ready(), groupExists('hooks')]);
    await admin.xadd(`${prefix}:events`, '*', 'foo', 'bar');
    await admin.xadd(
      `${prefix}:events`,
      '*',
      'event',
      'x',
      'client',
      'c',
      'at',
      'now',
      'data',
      '{bad',
    );
    const id = await a.publish('c', 'message', { ok: true });
    await until(() => seen.length === 1 && handled.length === 1);
    expect(seen[0].id).to.equal(id);
    expect(handled[0].data).to.deep.equal({ ok: true });
    expect((await a.since('0')).map((e) => e.id)).to.deep.equal([id]);
    await until(async () => {
      const [count] = (await admin.xpending(`${prefix}:events`, 'hooks')) as [number];
      return count === 0;
    });
  });

  it('since(after) returns the events after an id, exclusive, oldest first, up to a limit', async () => {
    const a = node('a');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await a.publish('alpha', 'message', { i }));
    const after = await a.since(ids[2]);
    expect(after.map((e) => e.id)).to.deep.equal(ids.slice(3));
    expect(after[0].data).to.deep.equal({ i: 3 });
    expect((await a.since(ids[2], 4)).map((e) => e.id)).to.deep.equal(ids.slice(3, 7));
    expect((await a.since('0')).length).to.equal(10);
    expect(await a.since(ids[9])).to.deep.equal([]);
    const refused = await a.since('nope').catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(WakitError).with.property('code', 'VALIDATION_FAILED');
  });

  it('keeps the stream near maxLen entries (approximate trimming)', async () => {
    const a = node('a', { maxLen: 50 });
    for (let i = 0; i < 400; i++) await a.publish('alpha', 'message', { i });
    const length = await admin.xlen(`${prefix}:events`);
    expect(length).to.be.at.least(50).and.below(400);
    const kept = await a.since('0');
    expect(kept.at(-1)?.data).to.deep.equal({ i: 399 });
  });

  it('consume(): two nodes in one group handle each event exactly once, and acknowledge it', async () => {
    const a = node('a');
    const b = node('b');
    const handled = new Map<string, string[]>();
    const handler = (nodeId: string) => async (event: FleetEvent) => {
      await sleep(Math.random() * 5);
      handled.set(event.id, [...(handled.get(event.id) ?? []), nodeId]);
    };
    a.consume('hooks', handler('a'));
    b.consume('hooks', handler('b'));
    await groupExists('hooks');
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(await (i % 2 ? a : b).publish('c', 'message', { i }));
    await until(() => handled.size === 60);
    await sleep(300);
    expect([...handled.keys()].sort()).to.deep.equal([...ids].sort());
    expect([...handled.values()].every((nodes) => nodes.length === 1)).to.equal(true);
    await until(async () => {
      const [count] = (await admin.xpending(`${prefix}:events`, 'hooks')) as [number];
      return count === 0;
    });
  });

  it('consume(): the events a node that died had taken are claimed by another after claimIdleMs', async () => {
    const survivor = node('survivor', { claimIdleMs: 400 });
    await admin.xgroup('CREATE', `${prefix}:events`, 'hooks', '$', 'MKSTREAM');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await survivor.publish('c', 'message', { i }));
    // a node takes them and dies: read by hand, never acknowledged
    const taken = await admin.call(
      'XREADGROUP',
      'GROUP',
      'hooks',
      'ghost',
      'COUNT',
      5,
      'STREAMS',
      `${prefix}:events`,
      '>',
    );
    expect(JSON.stringify(taken)).to.include(ids[4]);
    const tookAt = Date.now();
    const handled: { id: string; at: number }[] = [];
    survivor.consume('hooks', (event) => {
      handled.push({ id: event.id, at: Date.now() });
      return Promise.resolve();
    });
    for (let i = 5; i < 8; i++) ids.push(await survivor.publish('c', 'message', { i }));
    await until(() => handled.length === 8);
    await sleep(300);
    expect(handled.map((h) => h.id).sort()).to.deep.equal([...ids].sort());
    const claimed = handled.filter((h) => ids.indexOf(h.id) < 5);
    expect(claimed.every((h) => h.at - tookAt >= 400)).to.equal(true);
    await until(async () => {
      const [count] = (await admin.xpending(`${prefix}:events`, 'hooks')) as [number];
      return count === 0;
    });
  });

  it('consume(): a node that stops hands its unfinished events over at once', async () => {
    const stopping = node('stopping', { claimIdleMs: 5_000 });
    const taken: string[] = [];
    stopping.consume('hooks', (event) => {
      taken.push(event.id);
      return new Promise<void>(() => undefined); // still delivering when the node stops
    });
    await groupExists('hooks');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await stopping.publish('c', 'message', { i }));
    await until(() => taken.length === 5);
    await stopping.close();
    const survivor = node('survivor', { claimIdleMs: 5_000 });
    const handled: string[] = [];
    survivor.consume('hooks', (event) => {
      handled.push(event.id);
      return Promise.resolve();
    });
    // well before claimIdleMs (5 s)
    await until(() => handled.length === 5, 3_000);
    expect(handled).to.deep.equal(ids);
  });

  it('consume(): a live node whose handler outlasts claimIdleMs keeps its events', async () => {
    const slow = node('slow', { claimIdleMs: 300 });
    const other = node('other', { claimIdleMs: 300 });
    const handled: string[] = [];
    const started: string[] = [];
    slow.consume('hooks', async (event) => {
      started.push(event.id);
      await sleep(1_000);
      handled.push(event.id);
    });
    await groupExists('hooks');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await slow.publish('c', 'message', { i }));
    await until(() => started.length === 5);
    other.consume('hooks', (event) => {
      handled.push(event.id);
      return Promise.resolve();
    });
    for (let i = 5; i < 10; i++) ids.push(await other.publish('c', 'message', { i }));
    await until(() => handled.length >= 10);
    await sleep(1_000);
    expect([...handled].sort()).to.deep.equal([...ids].sort());
    await until(async () => {
      const [count] = (await admin.xpending(`${prefix}:events`, 'hooks')) as [number];
      return count === 0;
    });
  });

  it('subscribers and consumers resume after a Redis restart and see the later events; publishing while down fails', async () => {
    const a = node('a');
    const b = node('b');
    const seen: FleetEvent[] = [];
    const handled: number[] = [];
    b.subscribe((e) => seen.push(e));
    b.consume('hooks', (e) => {
      handled.push((e.data as { i: number }).i);
      return Promise.resolve();
    });
    await Promise.all([b.ready(), groupExists('hooks')]);
    for (let i = 0; i < 3; i++) await a.publish('alpha', 'message', { i });
    await until(() => seen.length === 3 && handled.length === 3);
    await redis.stop();
    const refused = await a.publish('alpha', 'message', { i: -1 }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(WakitError).with.property('code', 'STORAGE_UNAVAILABLE');
    await sleep(300);
    await redis.restart();
    for (let i = 3; i < 6; i++) {
      for (;;) {
        try {
          await a.publish('alpha', 'message', { i });
          break;
        } catch {
          await sleep(50);
        }
      }
    }
    await until(() => seen.length === 6 && handled.length === 6, 8_000);
    expect(seen.map((e) => (e.data as { i: number }).i)).to.deep.equal([0, 1, 2, 3, 4, 5]);
    expect(handled).to.deep.equal([0, 1, 2, 3, 4, 5]);
  });
});
