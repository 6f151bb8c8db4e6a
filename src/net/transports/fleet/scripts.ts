// The fleet's Lua scripts. Each runs atomically on the one node that holds the queue's
// hash tag (keys.ts) and reads time from Redis (TIME), never from a worker's clock. Each
// is safe to send again after a lost reply: a lease token makes the repeat a no-op.

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Hand attempts out. KEYS: queue, lease hash. ARGV: run, lease ms, then (id, token, spec)
 * triples. Sets each lease (token, deadline) and adds a stream entry; creates the stream
 * and its group when Redis has none (a restarted Redis). An id already leased to this
 * token was handed out by an earlier send of this same call: it is not added twice.
 * Returns the stream entry ids ('' for such repeats).
 */
export const ISSUE = `${NOW}
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('XGROUP', 'CREATE', KEYS[1], 'workers', '0', 'MKSTREAM') end
redis.call('HSET', KEYS[2], '~lease', ARGV[2])
local out = {}
for i = 3, #ARGV, 3 do
  local id, token = ARGV[i], ARGV[i + 1]
  if redis.call('HGET', KEYS[2], id) == token then
    out[#out + 1] = ''
  else
    redis.call('HSET', KEYS[2], id, token, id .. ':d', now + tonumber(ARGV[2]))
    redis.call('HDEL', KEYS[2], id .. ':s')
    out[#out + 1] = redis.call('XADD', KEYS[1], '*', 'run', ARGV[1], 'id', id, 'token', token, 'spec', ARGV[i + 2])
  end
end
return out`;

/**
 * A worker takes attempts it has read. KEYS: queue, lease hash. ARGV: (id, token, entry)
 * triples. A current lease is marked started and runs for the lease time from now; the
 * reply is each one's milliseconds left (0: stale, acked and deleted here, not to be sent).
 */
export const TAKE = `${NOW}
local lease = tonumber(redis.call('HGET', KEYS[2], '~lease') or '0')
local out = {}
for i = 1, #ARGV, 3 do
  local id = ARGV[i]
  if lease > 0 and redis.call('HGET', KEYS[2], id) == ARGV[i + 1] then
    redis.call('HSET', KEYS[2], id .. ':s', '1', id .. ':d', now + lease)
    out[#out + 1] = lease
  else
    redis.call('XACK', KEYS[1], 'workers', ARGV[i + 2])
    redis.call('XDEL', KEYS[1], ARGV[i + 2])
    out[#out + 1] = 0
  end
end
return out`;

/**
 * A worker hands outcomes back. KEYS: queue, lease hash, result list. ARGV: (id, token,
 * entry, outcome) quadruples. An outcome is accepted only under its current lease token
 * (the fence: a worker paused past its lease, whose attempt was handed to another,
 * writes nothing); the lease ends, and the entry is acked and deleted either way
 * (XACK alone would leave it in the stream). Returns how many were accepted.
 */
export const SUBMIT = `local accepted = 0
for i = 1, #ARGV, 4 do
  local id = ARGV[i]
  if redis.call('HGET', KEYS[2], id) == ARGV[i + 1] then
    redis.call('RPUSH', KEYS[3], ARGV[i + 3])
    redis.call('HDEL', KEYS[2], id, id .. ':d', id .. ':s')
    accepted = accepted + 1
  end
  redis.call('XACK', KEYS[1], 'workers', ARGV[i + 2])
  redis.call('XDEL', KEYS[1], ARGV[i + 2])
end
local ttl = redis.call('PTTL', KEYS[2])
if accepted > 0 and ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
return accepted`;

/**
 * The coordinator's lease timer went off. KEYS: queue, lease hash. ARGV: run, lease ms,
 * id, token, new token, spec, old entry, last ('1' when one more delivery reaches the
 * limit). Returns:
 *   {'early', ms}   its lease has ms left by Redis's clock
 *   {'reissued', entry, taken}  expired: handed out again under a new token, the old entry
 *                   acked and deleted, so a late outcome is refused. taken = 1 when a worker
 *                   had taken it (that counts as a delivery); 0 when none had (it waited in
 *                   the queue, or in the pending list of a worker that died between reading
 *                   and taking it, where no other worker would ever see it) or when its
 *                   lease is gone (a restarted Redis)
 *   {'limit'}       expired after a delivery that reached the limit: dropped, not handed
 *                   out again (handing it out first would let a worker take it once more)
 */
export const RECLAIM = `${NOW}
local id, lease = ARGV[3], tonumber(ARGV[2])
local token = redis.call('HGET', KEYS[2], id)
local taken = 0
if token == ARGV[4] then
  local deadline = tonumber(redis.call('HGET', KEYS[2], id .. ':d') or '0')
  if now < deadline then return {'early', deadline - now} end
  if redis.call('HGET', KEYS[2], id .. ':s') then taken = 1 end
elseif token == ARGV[5] then
  return {'early', lease}
end
if ARGV[7] ~= '' then
  redis.call('XACK', KEYS[1], 'workers', ARGV[7])
  redis.call('XDEL', KEYS[1], ARGV[7])
end
if taken == 1 and ARGV[8] == '1' then
  redis.call('HDEL', KEYS[2], id, id .. ':d', id .. ':s')
  return {'limit'}
end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('XGROUP', 'CREATE', KEYS[1], 'workers', '0', 'MKSTREAM') end
redis.call('HSET', KEYS[2], '~lease', ARGV[2], id, ARGV[5], id .. ':d', now + lease)
redis.call('HDEL', KEYS[2], id .. ':s')
local entry = redis.call('XADD', KEYS[1], '*', 'run', ARGV[1], 'id', id, 'token', ARGV[5], 'spec', ARGV[6])
return {'reissued', entry, taken}`;

/**
 * The coordinator gives an attempt up (delivery limit, or the run no longer wants it).
 * KEYS: queue, lease hash. ARGV: (id, entry) pairs. A late outcome is refused after this.
 */
export const DROP = `for i = 1, #ARGV, 2 do
  local id = ARGV[i]
  redis.call('HDEL', KEYS[2], id, id .. ':d', id .. ':s')
  if ARGV[i + 1] ~= '' then
    redis.call('XACK', KEYS[1], 'workers', ARGV[i + 1])
    redis.call('XDEL', KEYS[1], ARGV[i + 1])
  end
end
return 1`;

/**
 * A janitor deletes entries whose attempt is no longer leased to their token (their run
 * ended or expired, or the attempt was handed out again). KEYS: queue, lease hash. ARGV:
 * (id, token, entry) triples. Returns how many were deleted.
 */
export const CLEAR = `local dropped = 0
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[2], ARGV[i]) ~= ARGV[i + 1] then
    redis.call('XACK', KEYS[1], 'workers', ARGV[i + 2])
    redis.call('XDEL', KEYS[1], ARGV[i + 2])
    dropped = dropped + 1
  end
end
return dropped`;

/**
 * A coordinator takes (or keeps) per-host permits, so that runs sharing a fleet share
 * each origin's `--per-host` too. KEYS: host permit sets (sorted sets of permit → expiry,
 * Redis TIME), each once. ARGV: ttl ms, then per key: its limit, a count n, n permits.
 * A permit already held is renewed; a new one is granted while fewer than `limit`
 * unexpired permits are held. Returns 1 (held) or 0 per permit, in ARGV order. Work is
 * per key, not per permit (one expiry sweep and one ZADD), since a batch is mostly one
 * host's in a crawl of one site. Safe to repeat: a repeat renews.
 */
export const PERMIT = `${NOW}
local ttl = tonumber(ARGV[1])
local out, at = {}, 2
for i = 1, #KEYS do
  local limit, n = tonumber(ARGV[at]), tonumber(ARGV[at + 1])
  at = at + 2
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  local count = redis.call('ZCARD', KEYS[i])
  local add = {}
  for j = at, at + n - 1 do
    local granted = redis.call('ZSCORE', KEYS[i], ARGV[j])
    if not granted and count < limit then
      count = count + 1
      granted = true
    end
    if granted then
      add[#add + 1] = now + ttl
      add[#add + 1] = ARGV[j]
      out[#out + 1] = 1
    else
      out[#out + 1] = 0
    end
    if #add >= 1000 then
      redis.call('ZADD', KEYS[i], unpack(add))
      add = {}
    end
  end
  at = at + n
  if #add > 0 then redis.call('ZADD', KEYS[i], unpack(add)) end
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return out`;
