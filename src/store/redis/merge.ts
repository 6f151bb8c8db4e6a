import type { RedisLink } from './link.js';

/** Keys fetched per bucket and round trip while iterating. */
export const PAGE = 256;

interface Cursor {
	rec: string;
	idx: string;
	/** Fetched entries not yet yielded, from `next` on; `bytes` orders them. */
	page: Array<{ key: string; bytes: Buffer; json: string }>;
	next: number;
	/** The ZRANGEBYLEX bounds of the next page. */
	after: string;
	below: string;
	done: boolean;
}

/**
 * Every record of the given buckets in byte order of its key, as LevelDB lists keys:
 * each bucket's index is paged with ZRANGEBYLEX (the page's values with one HMGET), and
 * the buckets' heads are merged. Memory stays at a page per bucket however large the
 * store. A key deleted between its index page and its HMGET is skipped. With `range`,
 * only the keys from `from` (included) to `below` (excluded).
 *
 * @example
 * for await (const [key, record] of mergeBuckets<UrlRecord>(link, [bucketKeys('revisit:', 'url', 0)])) ...
 */
export async function* mergeBuckets<T>(
	link: RedisLink,
	buckets: ReadonlyArray<{ rec: string; idx: string }>,
	range?: { from: string; below: string },
): AsyncIterable<[string, T]> {
	const after = range ? `[${range.from}` : '-';
	const below = range ? `(${range.below}` : '+';
	const cursors: Cursor[] = buckets.map(({ rec, idx }) => ({ rec, idx, page: [], next: 0, after, below, done: false }));
	await Promise.all(cursors.map((cursor) => refill(link, cursor)));
	for (;;) {
		let best: Cursor | undefined;
		for (const cursor of cursors) {
			if (cursor.next < cursor.page.length && (!best || Buffer.compare(cursor.page[cursor.next]!.bytes, best.page[best.next]!.bytes) < 0)) best = cursor;
		}
		if (!best) return;
		const { key, json } = best.page[best.next++]!;
		yield [key, JSON.parse(json) as T];
		if (best.next === best.page.length) await refill(link, best);
	}
}

async function refill(link: RedisLink, cursor: Cursor): Promise<void> {
	cursor.page = [];
	cursor.next = 0;
	while (cursor.page.length === 0 && !cursor.done) {
		const keys = await link.read<string[]>(['ZRANGEBYLEX', cursor.idx, cursor.after, cursor.below, 'LIMIT', '0', String(PAGE)]);
		if (keys.length < PAGE) cursor.done = true;
		if (keys.length === 0) return;
		cursor.after = `(${keys.at(-1)!}`;
		const values = await link.read<Array<string | null>>(['HMGET', cursor.rec, ...keys]);
		keys.forEach((key, i) => {
			const json = values[i];
			if (json !== null && json !== undefined) cursor.page.push({ key, bytes: Buffer.from(key), json });
		});
	}
}
