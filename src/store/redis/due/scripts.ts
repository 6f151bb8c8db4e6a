import { luaScript } from '../link.js';

// The watch schedule's Lua scripts (redis-keys.ts has the key layout; the claims are in
// redis-claim-scripts.ts, an origin's turn to send in redis-turn-scripts.ts). KEYS[1] is
// a shard's base key (`P{due}` on one server, store/redis/due/shards.ts); every key a
// script touches is built from it, so all of them share its hash tag and each script
// runs on one node, atomically.
//
// A retry after a lost reply (redis-link.ts sends a script again across a reconnect):
// put, done, remove, release, gap and sweep leave the same state when run twice (a
// second run finds the URLs already where the first put them, or no claim left to end).
// claim does not: a claim whose reply was lost leased URLs nobody was told of. They are
// not lost, only late: they return to the schedule when their lease runs out, as a
// killed process's do.

export const PRELUDE = `local B = KEYS[1]
local function num(x) return string.format('%.17g', x) end
local order, touched = {}, {}
local function touch(o) if not touched[o] then touched[o] = true; order[#order + 1] = o end end
-- a place is 'bin|due|origin'
local function split(place)
  local i = string.find(place, '|', 1, true)
  local j = string.find(place, '|', i + 1, true)
  return string.sub(place, 1, i - 1), string.sub(place, i + 1, j - 1), string.sub(place, j + 1)
end
local function count(o, by) if redis.call('HINCRBY', B .. ':count', o, by) <= 0 then redis.call('HDEL', B .. ':count', o) end end
local function bin(b, by) redis.call('HINCRBY', B .. ':bins', b, by) end
-- an origin's next time to be asked: the later of its gap since its last claim and its first unclaimed URL
local function reready(o)
  local host = B .. ':host:' .. o
  local first = redis.call('ZRANGE', B .. ':at:' .. o, 0, 0, 'WITHSCORES')
  if #first == 0 then
    redis.call('ZREM', B .. ':ready', o)
    redis.call('ZREM', B .. ':first', o)
  else
    local at = tonumber(first[2])
    local last = redis.call('HGET', host, 'c')
    if last then at = math.max(at, tonumber(last) + (tonumber(redis.call('HGET', host, 'g')) or 0)) end
    redis.call('ZADD', B .. ':ready', num(at), o)
    redis.call('ZADD', B .. ':first', first[2], o)
  end
  -- an origin with no URLs and no claims keeps only its gap
  if not redis.call('HGET', B .. ':count', o) and (tonumber(redis.call('HGET', host, 'k')) or 0) <= 0 then redis.call('HDEL', host, 'c', 'k') end
end
local function settle()
  for _, o in ipairs(order) do reready(o) end
  order, touched = {}, {}
end
-- who holds a URL's claim: its origin and token (a claim is held as 'token|origin'; one
-- from before tokens as 'origin', with no token)
local function holder(url)
  local held = redis.call('HGET', B .. ':held', url)
  if not held then return nil, nil end
  local i = string.find(held, '|', 1, true)
  if not i then return held, nil end
  return string.sub(held, i + 1), string.sub(held, 1, i - 1)
end
-- whether a done or release under token tok ('' for none) comes too late: the URL's claim
-- is another's now (its lease ran out and it was claimed again)
local function stale(url, tok)
  if tok == '' then return false end
  local o, t = holder(url)
  return o ~= nil and t ~= nil and t ~= tok
end
-- ends a URL's claim; back: it is due again at the time its place has
local function unclaim(url, back)
  redis.call('ZREM', B .. ':lease', url)
  local held = holder(url)
  if not held then return end
  redis.call('HDEL', B .. ':held', url)
  -- an answered claim gave its origin's place back already
  if redis.call('HDEL', B .. ':ans', url) == 0 then redis.call('HINCRBY', B .. ':host:' .. held, 'k', -1) end
  touch(held)
  local place = back and redis.call('HGET', B .. ':place', url)
  if place then
    local _, due, o = split(place)
    redis.call('ZADD', B .. ':at:' .. o, due, url)
    touch(o)
  end
end
local function remove(url)
  local old = redis.call('HGET', B .. ':place', url)
  if not old then return end
  local b, _, o = split(old)
  redis.call('HDEL', B .. ':place', url)
  redis.call('HDEL', B .. ':nb', url)
  bin(b, -1)
  count(o, -1)
  redis.call('ZREM', B .. ':at:' .. o, url)
  touch(o)
end
`;

export const NOW = `local t = redis.call('TIME')
local now = tonumber(ARGV[1]) + (tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 - tonumber(ARGV[2])) * tonumber(ARGV[3])
`;

/**
 * put and done. ARGV: '1' for done (end the claims; a URL no longer in the schedule is
 * not put back) or '0' for put (a claimed URL keeps its claim and goes back at its new
 * place when done), then (url, origin, due, bin, notBefore or '', token or '') sextuples.
 * A done whose token is stale does nothing: the claim is another process's.
 */
export const PLACE = luaScript(`${PRELUDE}
local ending = ARGV[1] == '1'
for i = 2, #ARGV, 6 do
  local url, o, due, b, nb, tok = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  local claimed, skip = false, false
  if ending then
    skip = stale(url, tok)
    if not skip then unclaim(url, false) end
  else
    claimed = redis.call('HEXISTS', B .. ':held', url) == 1
  end
  local old = not skip and redis.call('HGET', B .. ':place', url)
  if not skip and (old or not ending) then
    if old then
      local ob, _, oo = split(old)
      bin(ob, -1)
      if not claimed then redis.call('ZREM', B .. ':at:' .. oo, url) end
      if oo ~= o then count(oo, -1); count(o, 1) end
      touch(oo)
    else
      count(o, 1)
    end
    bin(b, 1)
    redis.call('HSET', B .. ':place', url, b .. '|' .. due .. '|' .. o)
    if nb ~= '' then redis.call('HSET', B .. ':nb', url, nb) else redis.call('HDEL', B .. ':nb', url) end
    if not claimed then redis.call('ZADD', B .. ':at:' .. o, due, url) end
    touch(o)
  end
end
settle()
return 0`);

/** Takes URLs out of the schedule; a claim on one stays until done or released (then nothing goes back). ARGV: the URLs. */
export const REMOVE = luaScript(`${PRELUDE}
for i = 1, #ARGV do remove(ARGV[i]) end
settle()
return 0`);

/** Ends claims; the URLs keep the due time they had. ARGV: (url, token or '') pairs; a stale token ends nothing. */
export const RELEASE = luaScript(`${PRELUDE}
for i = 1, #ARGV, 2 do
  if not stale(ARGV[i], ARGV[i + 1]) then unclaim(ARGV[i], true) end
end
settle()
return 0`);

/**
 * The claims' requests are over (DueQueue.answered): each origin's place under perHost
 * comes back, once per claim; the claim holds until done, release or its lease. ARGV:
 * (url, token or '') pairs; a stale token gives back nothing.
 */
export const ANSWERED = luaScript(`${PRELUDE}
for i = 1, #ARGV, 2 do
  local url = ARGV[i]
  if not stale(url, ARGV[i + 1]) then
    local o = holder(url)
    if o and redis.call('HSETNX', B .. ':ans', url, '1') == 1 then redis.call('HINCRBY', B .. ':host:' .. o, 'k', -1) end
  end
end
return 0`);

/** Sets an origin's gap. ARGV: origin, ms. */
export const GAP = luaScript(`${PRELUDE}
redis.call('HSET', B .. ':host:' .. ARGV[1], 'g', ARGV[2])
touch(ARGV[1])
settle()
return 0`);

/**
 * Takes out of a source's listing what it listed before a generation and not since.
 * KEYS[1] is the schedule's base key `P{due}` (where the listings are), not a shard's.
 * ARGV: source, generation, then candidate URLs (read by HSCAN; checked again here, as a
 * mark may have come in between). Returns those no other source in `P{due}:srcs` lists:
 * the caller takes them out of the schedule (in their shards). Run twice, the second run
 * finds them gone from the listing and returns nothing; a URL returned and not yet taken
 * out when the process died stays scheduled, and listed by no one, until the next sweep
 * of a source that listed it.
 */
export const SWEEP = luaScript(`local B = KEYS[1]
local src = B .. ':src:' .. ARGV[1]
local generation = tonumber(ARGV[2])
local others = {}
for _, name in ipairs(redis.call('SMEMBERS', B .. ':srcs')) do
  if name ~= ARGV[1] then others[#others + 1] = B .. ':src:' .. name end
end
local gone = {}
for i = 3, #ARGV do
  local seen = tonumber(redis.call('HGET', src, ARGV[i]))
  if seen and seen < generation then
    redis.call('HDEL', src, ARGV[i])
    -- a URL another input still lists stays
    local listed = false
    for _, other in ipairs(others) do
      if redis.call('HEXISTS', other, ARGV[i]) == 1 then listed = true; break end
    end
    if not listed then gone[#gone + 1] = ARGV[i] end
  end
end
return gone`);

/** The schedule's time now, on Redis's clock. ARGV: at0, wall0, scale. */
export const NOW_SCRIPT = luaScript(`${NOW}return string.format('%.17g', now)`, { writes: false });

/**
 * The schedule's size. ARGV: at0, wall0, scale, the most URLs to count in the backlog, the
 * most origins to name. Returns size, backlog, claimed, hosts, the first unclaimed due
 * time ('' for none), then origin and depth of the deepest origins.
 */
export const STATS = luaScript(
	`${PRELUDE}${NOW}
local cap = tonumber(ARGV[4])
local backlog, offset = 0, 0
local depths = {}
while backlog < cap do
  local origins = redis.call('ZRANGEBYSCORE', B .. ':first', '-inf', num(now), 'LIMIT', offset, 1000)
  for _, o in ipairs(origins) do
    local depth = redis.call('ZCOUNT', B .. ':at:' .. o, '-inf', num(now))
    backlog = backlog + depth
    if depth > 0 then depths[#depths + 1] = {o, depth} end
  end
  if #origins < 1000 then break end
  offset = offset + 1000
end
table.sort(depths, function(a, b) if a[2] ~= b[2] then return a[2] > b[2] end return a[1] < b[1] end)
local first = redis.call('ZRANGE', B .. ':first', 0, 0, 'WITHSCORES')
local out = {redis.call('HLEN', B .. ':place'), math.min(backlog, cap), redis.call('ZCARD', B .. ':lease'), redis.call('HLEN', B .. ':count'), first[2] or ''}
for i = 1, math.min(#depths, tonumber(ARGV[5])) do out[#out + 1] = depths[i][1]; out[#out + 1] = depths[i][2] end
return out`,
	{ writes: false },
);
