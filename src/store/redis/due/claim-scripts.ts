import { luaScript } from '../link.js';
import { NOW, PRELUDE } from './scripts.js';

// The claim scripts of the Redis watch schedule, run on one shard (KEYS[1], its base key;
// redis-scripts.ts has the rest). ARGV: at0, wall0, scale (the QueueClock), then max,
// perHost, leaseMs, rate and burst, the last two the shard's share of the fleet's (see
// store/redis/due/queue.ts).
//
// The pacing slot, shared by CLAIM and CLAIM_AHEAD and by every process: a slot per
// check; at most burst saved up, and never ahead of now by more than one (a clock set
// back, by --now or a restart, does not stop the claims). `spend`: the checks it allows now.
const PACING = `local max, perHost, leaseMs, rate, burst = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local interval = 1 / rate
local slot = tonumber(redis.call('GET', B .. ':slot')) or (now - burst * interval)
slot = math.min(math.max(slot, now - burst * interval), now + interval)
local spend = math.min(max, math.floor((now - slot) / interval) + 1)
local out = {num(now), '', ''}
local seq = tonumber(redis.call('GET', B .. ':seq')) or 0
local taken = 0
-- claims url of origin o under the next token: leased, held, and handed out
local function lease(url, o)
  seq = seq + 1
  redis.call('ZREM', B .. ':at:' .. o, url)
  redis.call('ZADD', B .. ':lease', num(now + leaseMs), url)
  redis.call('HSET', B .. ':held', url, string.format('%d', seq) .. '|' .. o)
  out[#out + 1] = url
  out[#out + 1] = redis.call('HGET', B .. ':place', url)
  out[#out + 1] = string.format('%d', seq)
  taken = taken + 1
end
`;

// After a claim: the slot and token counter moved on, and the reply's head filled in
// (now, the shard's next ready time or '', schedule ms until its next pacing slot).
const AFTER = `settle()
if taken > 0 then
  redis.call('SET', B .. ':seq', string.format('%d', seq))
  redis.call('SET', B .. ':slot', num(slot + taken * interval))
end
local first = redis.call('ZRANGE', B .. ':ready', 0, 0, 'WITHSCORES')
out[2] = first[2] or ''
out[3] = num(math.max(0, slot + taken * interval - now))
return out`;

/**
 * Claims URLs due by now. Leases run out first; then the pacing slot gives the claim its
 * checks, and the ready origins are walked in order, each giving up to min(perHost -
 * claimed, 1 if it has a gap) URLs due by now. Origins are moved in \`ready\` after the
 * walk, so that the walk pages through a set that stands still. Returns now, the shard's
 * next ready time, the wait for its next slot, then (url, place, token) triples.
 */
export const CLAIM = luaScript(`${PRELUDE}${NOW}
while true do
  local expired = redis.call('ZRANGEBYSCORE', B .. ':lease', '-inf', num(now), 'LIMIT', 0, 1000)
  for _, url in ipairs(expired) do unclaim(url, true) end
  if #expired < 1000 then break end
end
settle()
${PACING}
local page = math.max(100, 2 * spend)
local offset = 0
while spend > 0 do
  local origins = redis.call('ZRANGEBYSCORE', B .. ':ready', '-inf', num(now), 'LIMIT', offset, page)
  for _, o in ipairs(origins) do
    if spend <= 0 then break end
    local host = B .. ':host:' .. o
    local info = redis.call('HMGET', host, 'g', 'k')
    local room = math.min(spend, perHost - (tonumber(info[2]) or 0))
    if (tonumber(info[1]) or 0) > 0 then room = math.min(room, 1) end
    if room > 0 then
      local due = redis.call('ZRANGEBYSCORE', B .. ':at:' .. o, '-inf', num(now), 'LIMIT', 0, room)
      for _, url in ipairs(due) do lease(url, o) end
      if #due > 0 then
        spend = spend - #due
        redis.call('HINCRBY', host, 'k', #due)
        redis.call('HSET', host, 'c', num(now))
        touch(o)
      end
    end
  end
  if #origins < page then break end
  offset = offset + page
end
${AFTER}`);

/**
 * Pull-ahead claims (DueQueue.claimAhead). The pacing slot gives the checks `claim` left;
 * the origins next ready after now (at most 256) whose gap has passed and that have room
 * under perHost offer their first URLs whose not-before time (\`nb\`) has come, and the
 * earliest due of those are claimed. Returns as CLAIM does.
 */
export const CLAIM_AHEAD = luaScript(`${PRELUDE}${NOW}${PACING}
local offers = {}
if spend > 0 then
  for _, o in ipairs(redis.call('ZRANGEBYSCORE', B .. ':ready', '(' .. num(now), '+inf', 'LIMIT', 0, 256)) do
    local info = redis.call('HMGET', B .. ':host:' .. o, 'g', 'k', 'c')
    local gap = tonumber(info[1]) or 0
    local room = math.min(spend, perHost - (tonumber(info[2]) or 0))
    if gap > 0 then
      room = math.min(room, 1)
      if info[3] and tonumber(info[3]) + gap > now then room = 0 end
    end
    if room > 0 then
      local first = redis.call('ZRANGE', B .. ':at:' .. o, 0, math.min(room + 31, 99), 'WITHSCORES')
      local offered = 0
      for k = 1, #first, 2 do
        if offered >= room then break end
        local nb = tonumber(redis.call('HGET', B .. ':nb', first[k]))
        if not nb or nb <= now then
          offers[#offers + 1] = {first[k], tonumber(first[k + 1]), o}
          offered = offered + 1
        end
      end
    end
  end
end
table.sort(offers, function(a, b) if a[2] ~= b[2] then return a[2] < b[2] end return a[1] < b[1] end)
for i = 1, math.min(spend, #offers) do
  local url, o = offers[i][1], offers[i][3]
  lease(url, o)
  redis.call('HINCRBY', B .. ':host:' .. o, 'k', 1)
  redis.call('HSET', B .. ':host:' .. o, 'c', num(now))
  touch(o)
end
${AFTER}`);
