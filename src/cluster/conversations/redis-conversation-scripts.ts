/**
 * The Lua scripts of the Redis conversation store: each write is one script, so it is atomic on
 * the server and two nodes never both win. Keys (under `<keyPrefix>:conv:`, passed as ARGV[1]):
 * - `s:<state key>` hash {v, ver, exp?, at}: a chat state value; `sidx` zset (score 0) of the
 *   state keys, for listing by prefix;
 * - `r:<id>` hash {head, steps, wait, at, client, active, started}: an active conversation (head:
 *   its fixed part as JSON); `j:<id>` list: its journal, one JSON step per index;
 * - `a:<client>\n<chat>\n<member>` string: the id of the member's active conversation;
 * - `l`, `l:<client>` zsets (score: start time): the active ones; `i:<client>` zset: those cut off
 *   in the middle of a step (not waiting); `t`, `t:<client>` zsets (score: due time): timers.
 */

/** Updates the wait of record `id` and the indexes that follow it (a Lua function). */
const SET_WAIT_FN = `
local function setwait(p, id, r, wait, waiting, due)
  local client = redis.call('HGET', r, 'client')
  local started = redis.call('HGET', r, 'started')
  redis.call('HSET', r, 'wait', wait)
  if waiting == '1' then
    redis.call('ZREM', p .. 'i:' .. client, id)
  else
    redis.call('ZADD', p .. 'i:' .. client, started, id)
  end
  if due == '' then
    redis.call('ZREM', p .. 't', id)
    redis.call('ZREM', p .. 't:' .. client, id)
  else
    redis.call('ZADD', p .. 't', due, id)
    redis.call('ZADD', p .. 't:' .. client, due, id)
  end
end
`;

/**
 * ARGV: prefix, key, value, expectedVersion, expiresAt ('' none), now, ttlMs ('' none). A value
 * past its expiry counts as absent for version 0. Returns the new version, or 0 (another came first).
 */
export const PUT_STATE_LUA = `
local k = ARGV[1] .. 's:' .. ARGV[2]
local ver = tonumber(redis.call('HGET', k, 'ver') or '0')
local expected = tonumber(ARGV[4])
if expected == 0 then
  local exp = redis.call('HGET', k, 'exp')
  if ver > 0 and not (exp and tonumber(exp) <= tonumber(ARGV[6])) then return 0 end
elseif ver ~= expected then
  return 0
end
local nextver = expected + 1
redis.call('DEL', k)
redis.call('HSET', k, 'v', ARGV[3], 'ver', nextver, 'at', ARGV[6])
if ARGV[5] ~= '' then redis.call('HSET', k, 'exp', ARGV[5]) end
if ARGV[7] ~= '' then redis.call('PEXPIRE', k, ARGV[7]) end
redis.call('ZADD', ARGV[1] .. 'sidx', 0, ARGV[2])
return nextver
`;

/**
 * ARGV: prefix, id, client, member key, head (JSON), startedAt, updatedAt, wait (JSON), waiting
 * ('1'/'0'), dueAt (''). Returns 1, or 0 when the chat member has an active conversation.
 */
export const BEGIN_LUA = `${SET_WAIT_FN}
local p, id = ARGV[1], ARGV[2]
if not redis.call('SET', p .. 'a:' .. ARGV[4], id, 'NX') then return 0 end
local r = p .. 'r:' .. id
redis.call('HSET', r, 'head', ARGV[5], 'steps', 0, 'at', ARGV[7], 'client', ARGV[3],
  'active', ARGV[4], 'started', ARGV[6])
redis.call('ZADD', p .. 'l', ARGV[6], id)
redis.call('ZADD', p .. 'l:' .. ARGV[3], ARGV[6], id)
setwait(p, id, r, ARGV[8], ARGV[9], ARGV[10])
return 1
`;

/**
 * ARGV: prefix, id, index, step (JSON), wait (JSON), waiting, dueAt, now. Appends the step at
 * `index` with the wait, or nothing: returns 0 when the journal is not at `index` (or is gone).
 */
export const APPEND_LUA = `${SET_WAIT_FN}
local p, id = ARGV[1], ARGV[2]
local r = p .. 'r:' .. id
local steps = redis.call('HGET', r, 'steps')
if not steps or tonumber(steps) ~= tonumber(ARGV[3]) then return 0 end
redis.call('RPUSH', p .. 'j:' .. id, ARGV[4])
redis.call('HSET', r, 'steps', tonumber(ARGV[3]) + 1, 'at', ARGV[8])
setwait(p, id, r, ARGV[5], ARGV[6], ARGV[7])
return 1
`;

/** ARGV: prefix, id, wait (JSON), waiting, dueAt. Returns 0 when the conversation is gone. */
export const SET_WAIT_LUA = `${SET_WAIT_FN}
local p, id = ARGV[1], ARGV[2]
local r = p .. 'r:' .. id
if redis.call('EXISTS', r) == 0 then return 0 end
setwait(p, id, r, ARGV[3], ARGV[4], ARGV[5])
return 1
`;

/** ARGV: prefix, id. Ends a conversation: its record, journal and index entries go. */
export const END_LUA = `
local p, id = ARGV[1], ARGV[2]
local r = p .. 'r:' .. id
if redis.call('EXISTS', r) == 0 then return 0 end
local client = redis.call('HGET', r, 'client')
local active = p .. 'a:' .. redis.call('HGET', r, 'active')
if redis.call('GET', active) == id then redis.call('DEL', active) end
redis.call('DEL', r, p .. 'j:' .. id)
for _, index in ipairs({ 'l', 'l:' .. client, 'i:' .. client, 't', 't:' .. client }) do
  redis.call('ZREM', p .. index, id)
end
return 1
`;
