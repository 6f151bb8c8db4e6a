import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { HostBook } from '../net/hosts/book.js';
import { observe, type Observation } from '../net/hosts/observe.js';
import type { TrustOptions } from '../net/hosts/trust-options.js';
import type { Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';

/**
 * What a judged task shows about its host's validators.
 *
 * @example
 * observationOf(task) // { plan, status: 200, sameBody: true, etagChanged: true }
 */
export function observationOf(task: Task): Observation | undefined {
	const { plan, probe, verdict, record } = task;
	if (!plan || !probe || !verdict) return undefined;
	if (verdict.reason === 'error') return { plan, status: probe.status, error: true };
	// The raw body decides here, content rules or not: validators describe bytes.
	const sameBody =
		verdict.reason === 'same-hash' ||
		(record?.hash !== undefined && probe.hash === record.hash && (verdict.reason === 'rebaseline' || verdict.reason === 'same-content'));
	const seen: Observation = { plan, status: probe.status, sameBody, newUrl: !record && task.next !== undefined };
	// An ETag obtained under another Accept-Encoding may differ for the same body (it can be a
	// hash of the compressed bytes): that is not rotation, so such pairs are not compared.
	const sameEncoding = record?.encoding === undefined || task.next?.encoding === undefined || record.encoding === task.next.encoding;
	if (sameBody && sameEncoding && record?.etag !== undefined) seen.etagChanged = probe.etag !== record.etag;
	if (sameBody && record?.lastModified !== undefined) seen.lastModifiedChanged = probe.lastModified !== record.lastModified;
	if (probe.audit && !probe.audit.error) seen.audit = verdict.reason === 'audit' ? 'lied' : 'honest';
	if (probe.headCheck) seen.headCheck = probe.headCheck;
	if (probe.formCheck) seen.formCheck = probe.formCheck;
	if (probe.unsafeValidator) seen.unsafeValidator = true;
	return seen;
}

/**
 * Folds each judged task's evidence into its host's record in the run's host book, so
 * the next probe of that host already follows the new mode (a host caught lying is
 * distrusted for the rest of the run). The book is written with the commit batches.
 *
 * @example
 * tasks$.pipe(compare(options, clock), trust(trustOptions, { book, clock }))
 */
export function trust(options: TrustOptions, { book, clock }: { book: HostBook; clock: Clock }): MonoTypeOperatorFunction<Task> {
	return tap((task) => {
		const seen = observationOf(task);
		if (!seen || task.origin === undefined) return;
		book.set(task.origin, observe(book.get(task.origin), seen, options, clock.now()));
	});
}
