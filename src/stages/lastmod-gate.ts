import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostBook } from '../hosts/book.js';
import { verificationDue } from '../hosts/verify.js';
import { liveRecord } from '../http/target.js';
import { LASTMOD_SAMPLE, lastmodSays } from '../schedule/lastmod.js';
import type { Clock, Task } from '../types.js';

export interface LastmodGateDeps {
	book: HostBook;
	clock: Clock;
	random: () => number;
}

/**
 * Sitemap lastmod as a skip signal, on hosts that earned it (schedule/lastmod.ts): a known
 * URL whose trusted lastmod is not after its last check is skipped (`lastmod`), unless
 * `--verify-every` has made it due or it falls in the LASTMOD_SAMPLE checked anyway; one
 * whose lastmod is after is marked `announced`, for the budget. Untrusted hosts pass as they are.
 *
 * @example
 * tasks$.pipe(lookup(store, { book }), due(...), lastmodGate({ verifyEveryMs }, { book, clock, random }), budget(...))
 */
export function lastmodGate(options: { verifyEveryMs: number }, deps: LastmodGateDeps): MonoTypeOperatorFunction<Task> {
	return map((task) => {
		if (task.skip || !task.record || task.lastmod === undefined || task.origin === undefined) return task;
		const host = deps.book.get(task.origin);
		const trust = host.lastmod;
		if (!trust?.trusted) return task;
		const says = lastmodSays(task.lastmod, task.record.lastChecked);
		if (says === 'changed') return { ...task, announced: true };
		if (says !== 'unchanged') return task;
		const live = liveRecord(task.record);
		if (live === undefined || verificationDue(live, task.url!, host.runInterval, options.verifyEveryMs, deps.clock.now())) return task;
		if (deps.random() < LASTMOD_SAMPLE) {
			deps.book.set(task.origin, { ...host, lastmod: { ...trust, sampled: trust.sampled + 1 } });
			return task;
		}
		deps.book.set(task.origin, { ...host, lastmod: { ...trust, skipped: trust.skipped + 1 } });
		return { ...task, skip: 'lastmod' };
	});
}
