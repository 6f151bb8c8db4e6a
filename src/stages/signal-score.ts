import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostBook } from '../net/hosts/book.js';
import { UNOBSERVED_REASONS } from '../domain/schedule/rate.js';
import { lastmodSays, maxAgeSays, scoreSignal } from '../domain/schedule/signals.js';
import type { Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';

/**
 * Scores each host's free signals against what its checks found (domain/schedule/signals.ts):
 * for a known URL that came with a sitemap lastmod, did lastmod announce the change the
 * check found, or miss it? For one whose last answer was still fresh by its max-age or
 * Expires, was it indeed unchanged? The host's trust, in the run's host book, follows.
 *
 * @example
 * tasks$.pipe(compare(...), signalScore({ book, clock }))
 */
export function signalScore({ book, clock }: { book: HostBook; clock: Clock }): MonoTypeOperatorFunction<Task> {
	return tap((task) => {
		if (!task.verdict || !task.record || task.origin === undefined || UNOBSERVED_REASONS.has(task.verdict.reason)) return;
		const changed = task.verdict.changed;
		const lastmod = lastmodSays(task.lastmod, task.record.lastChecked);
		if (lastmod !== undefined) {
			const host = book.get(task.origin);
			book.set(task.origin, { ...host, lastmod: scoreSignal(host.lastmod, 'lastmod', lastmod, changed, clock.now()) });
		}
		if (maxAgeSays(task.record, clock.now()) === 'unchanged') {
			const host = book.get(task.origin);
			book.set(task.origin, { ...host, maxAge: scoreSignal(host.maxAge, 'maxAge', 'unchanged', changed, clock.now()) });
		}
	});
}
