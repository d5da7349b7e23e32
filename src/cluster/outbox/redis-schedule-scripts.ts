/**
 * The Lua scripts of the Redis outbox's scheduled sends (docs/scheduling.md). A scheduled send is
 * a send hash with `status = scheduled` and `sendAt`, and a member of the client's scheduled set
 * `<p>:scheduled:<client>` (score: sendAt); it is in no open index until released. Each script
 * checks `status = scheduled` and changes the hash and the indexes in one atomic step, so of a
 * release, a cancel and a reschedule of one send racing on two nodes only one takes effect, and a
 * send is released once. Key names are built from the prefix in the script (one Redis server, not
 * a Redis Cluster), as in redis-scripts.ts.
 */

/**
 * ARGV: prefix, client, now, limit. Makes up to `limit` scheduled sends of `client` with
 * sendAt ≤ now `queued` (earliest sendAt first, then acceptance order), moves them from the
 * scheduled set into their open index (by seq, as if just appended), and returns their hashes
 * (HGETALL, flat), in that order.
 */
export const RELEASE_DUE_LUA = `
local p = ARGV[1]
local zkey = p .. ':scheduled:' .. ARGV[2]
local limit = tonumber(ARGV[4])
if limit < 1 then return {} end
local flat = redis.call('ZRANGEBYSCORE', zkey, '-inf', ARGV[3], 'WITHSCORES', 'LIMIT', 0, limit)
local due, seen = {}, {}
for i = 1, #flat, 2 do
  due[#due + 1] = {id = flat[i], at = tonumber(flat[i + 1])}
  seen[flat[i]] = true
end
if #due == limit then
  -- equal times are ordered by acceptance (seq), not by id: take every send of the last time
  local last = flat[#flat]
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', zkey, last, last)) do
    if not seen[id] then due[#due + 1] = {id = id, at = tonumber(last)} end
  end
end
for _, d in ipairs(due) do
  d.seq = tonumber(redis.call('HGET', p .. ':send:' .. d.id, 'seq') or '0')
end
table.sort(due, function(a, b)
  if a.at ~= b.at then return a.at < b.at end
  return a.seq < b.seq
end)
local released = {}
for _, d in ipairs(due) do
  if #released >= limit then break end
  local key = p .. ':send:' .. d.id
  redis.call('ZREM', zkey, d.id)
  local f = redis.call('HMGET', key, 'status', 'client', 'priority')
  if f[1] == 'scheduled' then
    redis.call('HSET', key, 'status', 'queued', 'updatedAt', ARGV[3])
    redis.call('ZADD', p .. ':open:' .. f[2] .. ':' .. f[3], d.seq, d.id)
    released[#released + 1] = redis.call('HGETALL', key)
  end
end
return released
`;

/**
 * ARGV: prefix, id, now, idempotency ttlMs. Cancels a scheduled send: `cancelled`, out of the
 * scheduled set, into the finished index; its idempotency key expires as any finished send's.
 * A send that is not scheduled (any more) is left alone. Returns its hash afterwards ({} if none).
 */
export const CANCEL_LUA = `
local p = ARGV[1]
local key = p .. ':send:' .. ARGV[2]
local f = redis.call('HMGET', key, 'status', 'client', 'idemScope', 'idemKey')
if f[1] == 'scheduled' then
  redis.call('HSET', key, 'status', 'cancelled', 'updatedAt', ARGV[3])
  redis.call('ZREM', p .. ':scheduled:' .. f[2], ARGV[2])
  redis.call('ZADD', p .. ':done', ARGV[3], ARGV[2])
  if f[3] and f[4] then
    redis.call('PEXPIRE', p .. ':idem:' .. string.len(f[3]) .. ':' .. f[3] .. ':' .. f[4], ARGV[4])
  end
end
return redis.call('HGETALL', key)
`;

/**
 * ARGV: prefix, id, sendAt, now. Moves a scheduled send to `sendAt` (hash and scheduled set); a
 * send that is not scheduled (any more) is left alone. Returns its hash afterwards ({} if none).
 */
export const RESCHEDULE_LUA = `
local p = ARGV[1]
local key = p .. ':send:' .. ARGV[2]
local f = redis.call('HMGET', key, 'status', 'client')
if f[1] == 'scheduled' then
  redis.call('HSET', key, 'sendAt', ARGV[3], 'updatedAt', ARGV[4])
  redis.call('ZADD', p .. ':scheduled:' .. f[2], ARGV[3], ARGV[2])
end
return redis.call('HGETALL', key)
`;

/** The schedule's scripts as ioredis custom commands (no KEYS: names come from the prefix). */
export const SCHEDULE_SCRIPTS = {
  wakitOutboxReleaseDue: { numberOfKeys: 0, lua: RELEASE_DUE_LUA },
  wakitOutboxCancel: { numberOfKeys: 0, lua: CANCEL_LUA },
  wakitOutboxReschedule: { numberOfKeys: 0, lua: RESCHEDULE_LUA },
} as const;
