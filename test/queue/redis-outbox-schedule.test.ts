/**
 * The Redis outbox has no scheduled sends yet (docs/scheduling.md): a send with `sendAt` is refused
 * with SCHEDULE_UNSUPPORTED and nothing is stored, so it can never go out before its time.
 */
import { expect } from 'chai';
import { isWakitError } from '../../src/errors/index.js';
import { RedisServer } from '../helpers/redis-server.js';
import { redisOutbox } from '../helpers/redis-outbox.js';

describe('RedisOutbox: sendAt is refused, not sent at once (a real redis-server)', function () {
  this.timeout(30_000);
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.dispose());

  it('append with sendAt: SCHEDULE_UNSUPPORTED, nothing open, nothing listed', async () => {
    const store = redisOutbox(server.url, 'sched');
    try {
      const error: unknown = await store
        .append({
          id: 'id-1',
          client: 'bot',
          account: null,
          chatId: '222@c.us',
          kind: 'text',
          priority: 'normal',
          content: JSON.stringify({ kind: 'text', text: 'later' }),
          createdAt: 1_000,
          sendAt: 60_000,
        })
        .catch((e: unknown) => e);
      expect(isWakitError(error, 'SCHEDULE_UNSUPPORTED')).to.equal(true);
      expect(await store.open('bot')).to.deep.equal([]);
      expect((await store.list({ limit: 10 })).items).to.deep.equal([]);
    } finally {
      await store.close();
    }
  });
});
