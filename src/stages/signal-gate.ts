import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostBook } from '../net/hosts/book.js';
import { verificationDue } from '../net/hosts/verify.js';
import { liveRecord } from '../net/http/target.js';
import { lastmodSays, maxAgeSays, signalSample, untested, type Signal } from '../domain/schedule/signals.js';
import type { HostRecord } from '../store/model/types.js';
import type { Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';

export interface SignalGateDeps {
	book: HostBook;
	clock: Clock;
	random: () => number;
}

/**
 * Free signals as skip signals, on hosts where they proved right (domain/schedule/signals.ts): a
 * known URL that a trusted sitemap lastmod dates before its last check, or whose last
 * answer is still fresh by a trusted max-age / Expires, is skipped (`signal`), unless
 * `--verify-every` has made it due, the signal has gone untested for half of it, or it
 * falls in the sample checked anyway (`signalSample`: 1% a run, less when the host's
 * runs are less than a day apart, so 1% a day). One
 * whose trusted lastmod is after its last check is marked `announced`, for the budget,
 * and one that a signal would skip but verification has made due `mustVerify`: the
 * signal would hide it past its bound, so the budget gives it a check of its own.
 *
 * @example
 * tasks$.pipe(lookup({ book }, store), due(...), signalGate({ verifyEveryMs }, { book, clock, random }), budget(...))
 */
export function signalGate(options: { verifyEveryMs: number }, deps: SignalGateDeps): MonoTypeOperatorFunction<Task> {
	return map((task) => {
		if (task.skip || !task.record || task.origin === undefined) return task;
		const host = deps.book.get(task.origin);
		const now = deps.clock.now();
		let skipOn: Signal | undefined;
		if (host.lastmod?.trusted && task.lastmod !== undefined) {
			const says = lastmodSays(task.lastmod, task.record.lastChecked);
			if (says === 'changed') return { ...task, announced: true };
			if (says === 'unchanged') skipOn = 'lastmod';
		}
		if (skipOn === undefined && host.maxAge?.trusted && maxAgeSays(task.record, now) === 'unchanged') skipOn = 'maxAge';
		if (skipOn === undefined) return task;
		const live = liveRecord(task.record);
		if (live === undefined) return task;
		if (verificationDue(live, task.url!, host.runInterval, options.verifyEveryMs, now)) return { ...task, mustVerify: true };
		const trust = host[skipOn]!;
		if (untested(trust, now, options.verifyEveryMs)) return task;
		const sampled = deps.random() < signalSample(host.runInterval);
		const counted: HostRecord = { ...host, [skipOn]: { ...trust, ...(sampled ? { sampled: trust.sampled + 1 } : { skipped: trust.skipped + 1 }) } };
		deps.book.set(task.origin, counted);
		return sampled ? task : { ...task, skip: 'signal' };
	});
}
