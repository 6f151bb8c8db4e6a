import type { HostBook } from '../net/hosts/book.js';
import { lastmodSays } from '../domain/schedule/signals.js';
import { urlOfLine } from '../stages/normalise.js';
import type { DueEntries, DueEntry } from '../store/model/due.js';
import type { StoreReader } from '../store/model/types.js';
import type { InputBatch } from './inputs.js';

/**
 * A sitemap's lastmod as the budget reads it: where the URL's host has earned trust in
 * its lastmod (domain/schedule/signals.ts) and the lastmod is after the URL's last check, the
 * URL is due now, whatever its interval said. Untrusted hosts' lastmods move nothing, so
 * a lying sitemap costs no checks. The trust itself is scored by the checks of sweeps and
 * runs over the store; a watch's claims do not carry the lastmod, so they do not score it.
 * Returns how many URLs it moved.
 *
 * @example
 * await announced(batch, { store, book, queue, now: clock.now() }) // 3
 */
export async function announced(batch: InputBatch, deps: { store: StoreReader; book: HostBook; queue: DueEntries; now: number }): Promise<number> {
	const lines = batch.lines.flatMap((line) => {
		if (line.lastmod === undefined) return [];
		const parsed = urlOfLine(line);
		return 'url' in parsed ? [{ ...parsed, lastmod: line.lastmod }] : [];
	});
	if (lines.length === 0) return 0;
	await deps.book.load([...new Set(lines.map((line) => line.origin))]);
	const dated = lines.filter((line) => deps.book.get(line.origin).lastmod?.trusted);
	if (dated.length === 0) return 0;
	const records = await deps.store.getMany(dated.map((entry) => entry.url));
	const moved: DueEntry[] = [];
	dated.forEach((entry, i) => {
		const record = records[i];
		if (record && record.rate !== undefined && lastmodSays(entry.lastmod, record.lastChecked) === 'changed')
			moved.push({ url: entry.url, origin: entry.origin, due: deps.now, rate: record.rate });
	});
	if (moved.length > 0) await deps.queue.put(moved);
	return moved.length;
}
