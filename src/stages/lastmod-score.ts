import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostBook } from '../hosts/book.js';
import { lastmodSays, scoreLastmod } from '../schedule/lastmod.js';
import type { Task } from '../types.js';

/** Reasons that say nothing about whether the page changed since its last check. */
const UNOBSERVED = new Set(['new', 'error', 'robots', 'deferred', 'candidate']);

/**
 * Scores each host's sitemap lastmod against what its checks found (schedule/lastmod.ts):
 * for a known URL that came with a lastmod, did lastmod announce the change the check
 * found, or miss it? The host's trust, kept in the run's host book, follows.
 *
 * @example
 * tasks$.pipe(compare(...), lastmodScore(book))
 */
export function lastmodScore(book: HostBook): MonoTypeOperatorFunction<Task> {
	return tap((task) => {
		if (!task.verdict || !task.record || task.lastmod === undefined || task.origin === undefined || UNOBSERVED.has(task.verdict.reason)) return;
		const says = lastmodSays(task.lastmod, task.record.lastChecked);
		if (says === undefined) return;
		const host = book.get(task.origin);
		book.set(task.origin, { ...host, lastmod: scoreLastmod(host.lastmod, says, task.verdict.changed) });
	});
}
