/**
 * A fleet's failures reach the sink (issue 30, B3): a consumer-group handler that fails (the REST
 * plugin's webhook delivery in a fleet) loses its event, which is acknowledged all the same so it
 * cannot block the group; the failure is reported once (source `fleet`), not only logged. On a
 * real redis-server.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { ErrorReport } from '../../src/kernel/error-sink.js';
import { RedisEventStream } from '../../src/cluster/redis-event-stream.js';
import { RedisServer } from '../helpers/redis-server.js';

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('fleet failures reach the sink, once', function () {
  this.timeout(20_000);
  let redis: RedisServer;
  let admin: Redis;

  before(async () => {
    redis = await RedisServer.start();
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    admin.on('error', () => undefined);
  });
  after(async () => {
    admin.disconnect();
    await redis.dispose();
  });

  it('a consumer handler that throws: reported (source fleet, event <group>:<event>), the event acknowledged', async () => {
    const reports: ErrorReport[] = [];
    const stream = new RedisEventStream({
      url: redis.url,
      keyPrefix: 'sink',
      nodeId: 'a',
      blockMs: 500,
      report: (r) => reports.push(r),
    });
    try {
      let calls = 0;
      stream.consume('hooks', () => {
        calls += 1;
        return Promise.reject(new Error('delivery crashed'));
      });
      await stream.ready();
      await until(async () => {
        const groups = (await admin.xinfo('GROUPS', 'sink:events').catch(() => [])) as unknown[][];
        return groups.some((g) => g[1] === 'hooks');
      });
      await stream.publish('bot', 'message', { n: 1 });
      await until(() => reports.length > 0);
      await until(async () => {
        const [pending] = (await admin.xpending('sink:events', 'hooks')) as [number];
        return pending === 0;
      });
      await sleep(100);
      expect(calls).to.equal(1);
      expect(
        reports.map((r) => [r.source, r.event, r.client, (r.error as Error).message]),
      ).to.deep.equal([['fleet', 'hooks:message', 'bot', 'delivery crashed']]);
    } finally {
      await stream.close();
    }
  });
});
