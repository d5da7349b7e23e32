import { expect } from 'chai';
import { governorSchema } from '../../src/config/governor-schema.js';
import { createRedis } from '../../src/cluster/redis-connection.js';
import { AccountGovernor } from '../../src/governor/account-governor.js';
import { RedisAccountStore } from '../../src/cluster/redis-account-store.js';
import { PRESETS } from '../../src/governor/presets.js';
import { systemClock } from '../../src/kernel/clock.js';
import { RedisServer } from '../helpers/redis-server.js';

const contact = (n: number) => `1555500${String(n).padStart(4, '0')}@c.us`;

describe('governor: two nodes of a fleet share one budget per account (real Redis)', function () {
  this.timeout(30_000);
  let redis: RedisServer;
  before(async () => {
    redis = await RedisServer.start();
  });
  after(async () => {
    await redis.stop();
  });

  it('what node A sends counts on node B: B defers once the account budget is spent, another account is not touched', async () => {
    const connections = ['a', 'b'].map((node) =>
      createRedis({ url: redis.url, name: `test:${node}` }),
    );
    // (the governor lets a send go when its store fails: both nodes must be connected first)
    for (const conn of connections) {
      if (conn.status !== 'ready') await new Promise((resolve) => conn.once('ready', resolve));
    }
    const config = governorSchema.parse({
      preset: 'standard',
      newContactsPerDay: 3,
      warmupDays: 0,
    });
    const node = (conn: (typeof connections)[number], client: string) =>
      new AccountGovernor({
        client,
        preset: 'standard',
        budgets: { ...PRESETS.standard!, newContactsPerDay: 3, warmupDays: 0 },
        config,
        store: new RedisAccountStore(conn, 'fleet-test:'),
        clock: systemClock,
      });
    const a = node(connections[0], 'bot');
    const b = node(connections[1], 'bot');
    const now = Date.now();
    const send = (n: number) => ({
      id: `s${n}`,
      chatId: contact(n),
      priority: 'bulk' as const,
      bypassBudget: false,
    });
    expect(await a.check(send(0), now)).to.equal('go');
    expect(await a.check(send(1), now)).to.equal('go');
    expect(await b.check(send(2), now)).to.equal('go');
    // The account's 3 new contacts are spent, by both nodes together.
    const answer = await b.check(send(3), now);
    expect(answer).to.deep.include({ budget: 'newContactsPerDay' });
    expect(await a.check(send(4), now)).to.not.equal('go');
    expect(b.info().used).to.include({ newContactsPerDay: 3, perDay: 3 });
    // A contact already written to is no longer new, whichever node wrote.
    expect(await b.check({ ...send(0), id: 's5' }, now)).to.equal('go');
    // Another account has its own budget.
    expect(await node(connections[1], 'other').check(send(6), now)).to.equal('go');
    for (const conn of connections) conn.disconnect();
  });

  it('two nodes spending at once never exceed the budget: the check and the record are one atomic step', async () => {
    const connections = ['a', 'b'].map((node) =>
      createRedis({ url: redis.url, name: `test:race:${node}` }),
    );
    for (const conn of connections) {
      if (conn.status !== 'ready') await new Promise((resolve) => conn.once('ready', resolve));
    }
    const budgets = { ...PRESETS.standard!, perHour: 7, newContactsPerDay: 100, warmupDays: 0 };
    const config = governorSchema.parse({ preset: 'standard', perHour: 7, warmupDays: 0 });
    const nodes = connections.map(
      (conn) =>
        new AccountGovernor({
          client: 'race',
          preset: 'standard',
          budgets,
          config,
          store: new RedisAccountStore(conn, 'race-test:'),
          clock: systemClock,
        }),
    );
    const now = Date.now();
    // 40 sends on each node at once, to 80 contacts: every check reads the history before any spend
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, n) =>
        nodes[n % 2].check(
          { id: `r${n}`, chatId: contact(100 + n), priority: 'bulk', bypassBudget: false },
          now,
        ),
      ),
    );
    const sent = answers.filter((a) => a === 'go').length;
    const deferred = answers.filter((a) => a !== 'go' && a.budget === 'perHour').length;
    const store = new RedisAccountStore(connections[0], 'race-test:');
    const recorded = (await store.history('race', now - 3_600_000)).length;
    console.log(
      `      concurrent spenders: 80 sends on 2 nodes, budget 7/hour: sent ${sent}, recorded ${recorded}, deferred ${deferred}`,
    );
    expect(sent).to.equal(7);
    expect(recorded).to.equal(7);
    expect(deferred).to.equal(73);
    for (const conn of connections) conn.disconnect();
  });
});
