import type { RoundHint } from './rounds.js';
import { shardsOfUrl } from './shards.js';
import { binRate, type ClaimRef, type DueEntry } from '../../model/due.js';

// A claim token on Redis is `SHARD.SEQ`: the shard that handed the URL out and that shard's
// claim number (`S:seq`), so that a `done` or `release` by token goes to the one shard,
// and its script compares SEQ with the one the claim is held under (`S:held`).

/**
 * A claim token as handed out: its shard and the shard's claim number; undefined for no
 * token, or one that names no shard of `count` (then the URL is looked for by its origin).
 *
 * @example
 * parseToken('3.117', 16) // { shard: 3, seq: '117' }
 */
export function parseToken(token: string | undefined, count: number): { shard: number; seq: string } | undefined {
	if (token === undefined) return undefined;
	const dot = token.indexOf('.');
	const shard = Number(token.slice(0, dot));
	return dot > 0 && Number.isInteger(shard) && shard >= 0 && shard < count ? { shard, seq: token.slice(dot + 1) } : undefined;
}

/**
 * The shards that may hold a claim: the one its token names; without one, every shard
 * its URL may be in.
 *
 * @example
 * claimShards({ url: 'https://a.test/', token: '3.117' }, 16) // [3]
 */
export function claimShards(ref: ClaimRef, count: number): number[] {
	const token = parseToken(ref.token, count);
	return token ? [token.shard] : shardsOfUrl(ref.url, count);
}

/**
 * What a claim round's reply (redis-claim-scripts.ts) says: of its shard (now, its next
 * ready time or '', the wait for its next pacing slot), then the URLs it claimed as
 * (url, place `bin|due|origin`, claim number) triples, each given its token.
 *
 * @example
 * readClaim(3, ['1000', '', '0', 'https://a.test/', '2|990|https://a.test', '117'])
 * // { hint: { now: 1000, next: undefined, wait: 0 },
 * //   entries: [{ url: 'https://a.test/', origin: 'https://a.test', due: 990, rate: binRate(2), token: '3.117' }] }
 */
export function readClaim(shard: number, reply: readonly string[]): { hint: RoundHint; entries: DueEntry[] } {
	const hint = { now: Number(reply[0]), next: reply[1] === '' ? undefined : Number(reply[1]), wait: Number(reply[2]) };
	const entries: DueEntry[] = [];
	for (let i = 3; i < reply.length; i += 3) {
		const place = reply[i + 1]!;
		const [bin, due] = place.split('|', 2) as [string, string];
		entries.push({
			url: reply[i]!,
			origin: place.slice(bin.length + due.length + 2),
			due: Number(due),
			rate: binRate(Number(bin)),
			token: `${shard}.${reply[i + 2]!}`,
		});
	}
	return { hint, entries };
}
