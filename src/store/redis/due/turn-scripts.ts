import { luaScript } from '../link.js';

// An origin's turn to send (DueQueue.turn), on Redis's clock in wall ms, so that the
// processes' own clocks do not matter: in the origin's host hash under its shard (KEYS[1],
// the shard's base key; redis-keys.ts), t: the holder's token, u: until when it holds,
// n: the earliest time of the next send. Unlike the schedule's scripts (redis-scripts.ts)
// these touch no URL, so they need none of its helpers.
const WALL = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local host = KEYS[1] .. ':host:' .. ARGV[1]
`;

/** Asks for an origin's turn. ARGV: origin, gap ms, hold ms, token. Returns 0 when granted, else the ms to wait. */
export const TURN = luaScript(`${WALL}
local gap, token = tonumber(ARGV[2]), ARGV[4]
local holder, untl = redis.call('HGET', host, 't'), tonumber(redis.call('HGET', host, 'u')) or 0
if holder and holder ~= token and untl > now then return math.max(1, math.min(gap, untl - now)) end
local nxt = tonumber(redis.call('HGET', host, 'n')) or 0
if nxt > now then return nxt - now end
redis.call('HSET', host, 't', token, 'u', now + tonumber(ARGV[3]))
return 0`);

/** A turn's request is sent. ARGV: origin, gap ms, token. */
export const SENT = luaScript(`${WALL}
local nxt = math.max(tonumber(redis.call('HGET', host, 'n')) or 0, now + tonumber(ARGV[2]))
redis.call('HSET', host, 'n', nxt)
if redis.call('HGET', host, 't') == ARGV[3] then redis.call('HDEL', host, 't', 'u') end
return 0`);
