/**
 * The Redis outbox's Lua scripts. Each runs atomically on the server, so a send is either wholly
 * journaled (idempotency key, sequence number, entry, indexes, media) or not at all, and a status
 * change moves a send out of the open index in the same step that records it. Key names are built
 * by `redis-rows.ts` (appends get them as KEYS) or, for the scripts that touch sends by id, in the
 * script from the prefix: the fleet's Redis is one server (or a primary with replicas), not a
 * Redis Cluster.
 */

import { SCHEDULE_SCRIPTS } from './redis-schedule-scripts.js';

/** The idempotency key's name in Lua (same as `idemKey` in redis-rows.ts: byte length, then text). */
const IDEM_KEY_LUA = `
local function idemKey(p, scope, key)
  return p .. ':idem:' .. string.len(scope) .. ':' .. scope .. ':' .. key
end`;

/**
 * KEYS: seq, send, idem, open, list, client list, media, scheduled set (of the client).
 * ARGV: id, client, account ('' = none), chatId, kind, priority, content, createdAt, idemScope,
 * idemKey ('' = none), idemHash, media ('' = none), channel, nodeId, bypassBudget ('1' or ''),
 * sendAt ('' = none).
 * A send with sendAt is journaled `scheduled`, in the client's scheduled set instead of its open
 * index, and no notice is published (it is not the owner's to page in; redis-schedule-scripts.ts
 * releases it at its time). The idempotency key has no expiry while its send is unfinished;
 * finishing the send sets one. Returns {'dup', id, hash} when the idempotency key is taken, else
 * {'ok', seq}.
 */
export const APPEND_LUA = `
if ARGV[10] ~= '' then
  local taken = redis.call('SET', KEYS[3], ARGV[1] .. '\\n' .. ARGV[11], 'NX')
  if not taken then
    local found = redis.call('GET', KEYS[3])
    if found then
      local nl = string.find(found, '\\n', 1, true)
      return {'dup', string.sub(found, 1, nl - 1), string.sub(found, nl + 1)}
    end
    redis.call('SET', KEYS[3], ARGV[1] .. '\\n' .. ARGV[11])
  end
end
local seq = redis.call('INCR', KEYS[1])
local scheduled = ARGV[16] ~= ''
redis.call('HSET', KEYS[2], 'seq', seq, 'id', ARGV[1], 'client', ARGV[2], 'chatId', ARGV[4],
  'kind', ARGV[5], 'priority', ARGV[6], 'content', ARGV[7],
  'status', scheduled and 'scheduled' or 'queued', 'attempts', 0,
  'createdAt', ARGV[8], 'updatedAt', ARGV[8])
if scheduled then redis.call('HSET', KEYS[2], 'sendAt', ARGV[16]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], 'account', ARGV[3]) end
if ARGV[15] == '1' then redis.call('HSET', KEYS[2], 'bypassBudget', '1') end
if ARGV[10] ~= '' then
  redis.call('HSET', KEYS[2], 'idemScope', ARGV[9], 'idemKey', ARGV[10], 'idemHash', ARGV[11])
end
if ARGV[12] ~= '' then
  redis.call('SET', KEYS[7], ARGV[12])
  redis.call('HSET', KEYS[2], 'media', '1')
end
redis.call('ZADD', KEYS[5], seq, ARGV[1])
redis.call('ZADD', KEYS[6], seq, ARGV[1])
if scheduled then
  redis.call('ZADD', KEYS[8], ARGV[16], ARGV[1])
  return {'ok', seq}
end
redis.call('ZADD', KEYS[4], seq, ARGV[1])
redis.call('PUBLISH', ARGV[13], cjson.encode({client = ARGV[2], seq = seq, nodeId = ARGV[14]}))
return {'ok', seq}
`;

/**
 * ARGV: prefix, id, status, attempts, updatedAt, messageId, ack, sentAt, errorCode, errorMessage
 * ('' = none for the last five), finished ('1'/'0'), idempotency ttlMs.
 * A finished status takes the send out of its open index, into the finished index (by time), and
 * keeps its idempotency key for the retention time from now. A send that is gone is left alone.
 */
export const UPDATE_LUA = `${IDEM_KEY_LUA}
local p = ARGV[1]
local key = p .. ':send:' .. ARGV[2]
if redis.call('EXISTS', key) == 0 then return 0 end
redis.call('HSET', key, 'status', ARGV[3], 'attempts', ARGV[4], 'updatedAt', ARGV[5])
if ARGV[6] ~= '' then redis.call('HSET', key, 'messageId', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', key, 'ack', ARGV[7]) end
if ARGV[8] ~= '' then redis.call('HSET', key, 'sentAt', ARGV[8]) end
if ARGV[9] ~= '' then
  redis.call('HSET', key, 'errorCode', ARGV[9], 'errorMessage', ARGV[10])
else
  redis.call('HDEL', key, 'errorCode', 'errorMessage')
end
if ARGV[11] == '1' then
  local f = redis.call('HMGET', key, 'client', 'priority', 'idemScope', 'idemKey')
  redis.call('ZREM', p .. ':open:' .. f[1] .. ':' .. f[2], ARGV[2])
  redis.call('ZADD', p .. ':done', ARGV[5], ARGV[2])
  if f[3] and f[4] then redis.call('PEXPIRE', idemKey(p, f[3], f[4]), ARGV[12]) end
end
return 1
`;

/**
 * ARGV: prefix, client, priority, after, updatedAt, errorCode, errorMessage, ttlMs, except ids...
 * Fails the open sends of one client and priority above \`after\`; returns their ids.
 */
export const FAIL_OPEN_LUA = `${IDEM_KEY_LUA}
local p = ARGV[1]
local zkey = p .. ':open:' .. ARGV[2] .. ':' .. ARGV[3]
local ids = redis.call('ZRANGEBYSCORE', zkey, '(' .. ARGV[4], '+inf')
local except = {}
for i = 9, #ARGV do except[ARGV[i]] = true end
local failed = {}
for _, id in ipairs(ids) do
  if not except[id] then
    local key = p .. ':send:' .. id
    redis.call('HSET', key, 'status', 'failed', 'updatedAt', ARGV[5], 'errorCode', ARGV[6],
      'errorMessage', ARGV[7])
    redis.call('ZREM', zkey, id)
    redis.call('ZADD', p .. ':done', ARGV[5], id)
    local f = redis.call('HMGET', key, 'idemScope', 'idemKey')
    if f[1] and f[2] then redis.call('PEXPIRE', idemKey(p, f[1], f[2]), ARGV[8]) end
    failed[#failed + 1] = id
  end
end
return failed
`;

/** ARGV: prefix, ids... Removes those finished sends wholly; returns how many. */
export const PRUNE_LUA = `${IDEM_KEY_LUA}
local p = ARGV[1]
local removed = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  local key = p .. ':send:' .. id
  local f = redis.call('HMGET', key, 'client', 'status', 'idemScope', 'idemKey')
  redis.call('ZREM', p .. ':done', id)
  if f[2] and f[2] ~= 'queued' and f[2] ~= 'sending' and f[2] ~= 'scheduled' then
    redis.call('DEL', key, p .. ':media:' .. id)
    redis.call('ZREM', p .. ':list', id)
    redis.call('ZREM', p .. ':list:' .. f[1], id)
    if f[3] and f[4] then
      local idem = idemKey(p, f[3], f[4])
      local held = redis.call('GET', idem)
      if held and string.sub(held, 1, string.len(id) + 1) == id .. '\\n' then
        redis.call('DEL', idem)
      end
    end
    removed = removed + 1
  end
end
return removed
`;

/** The scripts as ioredis custom commands (EVALSHA, loaded again after a Redis restart). */
export const SCRIPTS = {
  wakitOutboxAppend: { numberOfKeys: 8, lua: APPEND_LUA },
  wakitOutboxUpdate: { numberOfKeys: 0, lua: UPDATE_LUA },
  wakitOutboxFailOpen: { numberOfKeys: 0, lua: FAIL_OPEN_LUA },
  wakitOutboxPrune: { numberOfKeys: 0, lua: PRUNE_LUA },
  ...SCHEDULE_SCRIPTS,
} as const;

export type ScriptName = keyof typeof SCRIPTS;
