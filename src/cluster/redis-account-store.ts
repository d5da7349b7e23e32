import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type {
  AccountStore,
  ContactFacts,
  Limits,
  Restriction,
  SentRecord,
} from '../governor/account-store.js';
import { DAY_MS, HOUR_MS } from '../governor/budget-check.js';
import type { ClusterConfig } from '../config/schema.js';
import { createRedis } from './redis-connection.js';

const SPEND = 'wakitGovernorSpend';
type SpendCommand = (this: Redis, ...args: string[]) => Promise<number>;

/**
 * One spend, atomic on the server (so two nodes never both spend an account's last unit).
 * KEYS: sent (sorted set, score = time, member `at:new:uuid`), contacts (hash).
 * ARGV: at, new (1/0), member, forgetBefore, hourFrom, dayFrom, perHour, perDay, newContactsPerDay
 * (-1: no limit), chatId, the contact's facts (JSON). Returns 1 when recorded, 0 when over a limit.
 * The windows are as `exceeded` (budget-check.ts) counts them: messages after `from`.
 */
const SPEND_LUA = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[4])
local perHour = tonumber(ARGV[7])
if perHour >= 0 then
  if redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[5], '+inf') >= perHour then return 0 end
  local day = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[6], '+inf')
  if #day >= tonumber(ARGV[8]) then return 0 end
  if ARGV[2] == '1' then
    local fresh = 0
    for _, m in ipairs(day) do
      if string.find(m, '^[^:]+:1:') then fresh = fresh + 1 end
    end
    if fresh >= tonumber(ARGV[9]) then return 0 end
  end
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[10], ARGV[11])
return 1
`;

/**
 * The AccountStore on Redis (a fleet): every node that runs a client spends one budget per
 * account. Keys under `<keyPrefix>governor:`: a sorted set of sent messages per account (score =
 * time), a hash of known contacts, the first link (SET NX) and the restriction. The caller owns the connection (made with the cluster's `createRedis`).
 */
export class RedisAccountStore implements AccountStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'wakit:',
    /** Closes the connection when the store owns it. */
    private readonly onClose: () => Promise<void> = () => Promise.resolve(),
  ) {
    if (!(SPEND in redis)) redis.defineCommand(SPEND, { numberOfKeys: 2, lua: SPEND_LUA });
  }

  #key(...parts: string[]): string {
    return `${this.keyPrefix}governor:${parts.join(':')}`;
  }

  async history(account: string, since: number): Promise<SentRecord[]> {
    const members = await this.redis.zrangebyscore(this.#key('sent', account), since, '+inf');
    return members.map((member) => {
      const [at, fresh] = member.split(':');
      return { at: Number(at), newContact: fresh === '1' };
    });
  }

  async spend(
    account: string,
    chatId: string,
    record: SentRecord,
    forgetBefore: number,
    limits?: Limits,
  ): Promise<boolean> {
    const member = `${record.at}:${record.newContact ? 1 : 0}:${randomUUID()}`;
    const facts = JSON.stringify({ ...(await this.contact(account, chatId)), sentBefore: true });
    const spend = (this.redis as unknown as Record<typeof SPEND, SpendCommand>)[SPEND];
    const recorded = await spend.call(
      this.redis,
      this.#key('sent', account),
      this.#key('contacts', account),
      String(record.at),
      record.newContact ? '1' : '0',
      member,
      String(forgetBefore),
      String(record.at - HOUR_MS),
      String(record.at - DAY_MS),
      ...(limits
        ? [limits.perHour, limits.perDay, limits.newContactsPerDay].map(String)
        : ['-1', '-1', '-1']),
      chatId,
      facts,
    );
    return recorded === 1;
  }

  async contact(account: string, chatId: string): Promise<ContactFacts> {
    const json = await this.redis.hget(this.#key('contacts', account), chatId);
    return json ? (JSON.parse(json) as ContactFacts) : { sentBefore: false, coMember: false };
  }

  async #setFacts(account: string, chatId: string, change: Partial<ContactFacts>): Promise<void> {
    const facts = { ...(await this.contact(account, chatId)), ...change };
    await this.redis.hset(this.#key('contacts', account), chatId, JSON.stringify(facts));
  }

  noteInbound(account: string, chatId: string, at: number): Promise<void> {
    return this.#setFacts(account, chatId, { lastInboundAt: at });
  }

  noteCoMember(account: string, chatId: string): Promise<void> {
    return this.#setFacts(account, chatId, { coMember: true });
  }

  async linkedAt(account: string): Promise<number | undefined> {
    const value = await this.redis.get(this.#key('linked', account));
    return value === null ? undefined : Number(value);
  }

  async noteLinked(account: string, at: number): Promise<void> {
    await this.redis.set(this.#key('linked', account), String(at), 'NX');
  }

  async restriction(account: string): Promise<Restriction | undefined> {
    const json = await this.redis.get(this.#key('restriction', account));
    return json ? (JSON.parse(json) as Restriction) : undefined;
  }

  async setRestriction(account: string, restriction: Restriction | undefined): Promise<void> {
    const key = this.#key('restriction', account);
    if (restriction) await this.redis.set(key, JSON.stringify(restriction));
    else await this.redis.del(key);
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/** The fleet's account store, on its own connection (the governor loads this with import()). */
export function createRedisAccountStore(cluster: ClusterConfig): RedisAccountStore {
  const redis = createRedis({ url: cluster.url, name: 'wakit:governor' });
  return new RedisAccountStore(redis, cluster.keyPrefix, () => redis.quit().then(() => undefined));
}
