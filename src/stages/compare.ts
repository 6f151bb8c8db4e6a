import { map, type MonoTypeOperatorFunction } from 'rxjs';
import { RECORD_VERSION, type UrlRecord } from '../store/types.js';
import { liveRecord } from '../http/target.js';
import type { Clock, ProbeResult, Task, Verdict } from '../types.js';

export interface CompareOptions {
	/** Recorded with new validators, so a later run under another encoding can drop the ETag. */
	acceptEncoding: string;
}

const isLive = (record: UrlRecord | null | undefined): record is UrlRecord => liveRecord(record) !== undefined;

/**
 * Decides one URL's verdict from its stored record and probe result, and the record
 * to commit once the verdict is out. Pure: no I/O, the clock is only read.
 *
 * @example
 * judge('https://example.org/', null, probeResult, 'gzip', Date.now())
 * // { verdict: { url, changed: true, reason: 'new', ... }, next: { ... } }
 */
export function judge(
	url: string,
	record: UrlRecord | null,
	probe: ProbeResult,
	acceptEncoding: string,
	now: number,
): { verdict: Verdict; next?: UrlRecord } {
	const common = compact({
		status: probe.status || undefined,
		finalUrl: probe.finalUrl !== url ? probe.finalUrl : undefined,
		bytes: probe.bytes,
		ms: probe.ms,
	});
	const where = compact({ finalUrl: probe.finalUrl !== url ? probe.finalUrl : undefined, permanent: probe.permanent || undefined });

	if (probe.error) {
		return { verdict: { url, changed: false, reason: 'error', ...common, error: probe.error } };
	}
	const audit = probe.status === 304 && isLive(record) ? probe.audit : undefined;
	if (audit && !audit.error && audit.status !== 304) {
		// The unconditional re-fetch is the truth a lying 304 would have hidden.
		const audited = judge(url, record, audit, acceptEncoding, now);
		if (audited.verdict.changed) return { verdict: { ...audited.verdict, reason: 'audit' }, next: audited.next };
	}
	if (probe.status === 304) {
		if (!isLive(record)) {
			const error = { code: 'UNEXPECTED_304', message: 'server answered 304 to a request with no validators' };
			return { verdict: { url, changed: false, reason: 'error', ...common, error } };
		}
		// Keep stored validators unless the server sent new ones (RFC 9110 §15.4.5); where the request ended is this probe's.
		const next: UrlRecord = compact({ ...record, finalUrl: where.finalUrl, permanent: where.permanent, etag: probe.etag ?? record.etag, lastModified: probe.lastModified ?? record.lastModified, lastChecked: now });
		return { verdict: { url, changed: false, reason: '304', ...common, ...validatorsOf(next) }, next };
	}
	if (probe.status === 404 || probe.status === 410) {
		const next: UrlRecord = compact({ v: RECORD_VERSION, status: probe.status, ...where, lastChecked: now });
		return { verdict: { url, changed: isLive(record), reason: 'gone', ...common }, next };
	}
	if (probe.headersOnly) {
		// Headers only (a candidates sweep): it may have changed; the fetch phase decides and commits.
		return { verdict: { url, changed: true, reason: 'candidate', ...common, etag: probe.etag, lastModified: probe.lastModified } };
	}
	const next: UrlRecord = compact({
		v: RECORD_VERSION,
		status: probe.status,
		etag: probe.etag,
		lastModified: probe.lastModified,
		hash: probe.hash,
		...where,
		size: probe.bytes,
		encoding: acceptEncoding,
		lastChecked: now,
	});
	const reason = !record ? 'new' : isLive(record) && record.hash === probe.hash ? 'same-hash' : 'new-body';
	return { verdict: { url, changed: reason !== 'same-hash', reason, ...common, ...validatorsOf(next) }, next };
}

/**
 * Attaches `verdict` and `next` to every probed task.
 *
 * @example
 * tasks$.pipe(probe(deps, options), compare({ acceptEncoding: 'gzip' }, clock))
 */
export function compare(options: CompareOptions, clock: Clock): MonoTypeOperatorFunction<Task> {
	const { acceptEncoding } = options;
	return map((task) => {
		// A task judged already (a crawl's sweep phase) is judged again only after a fetch clears its verdict.
		if (task.skip || !task.probe || task.url === undefined || task.verdict) return task;
		const { verdict, next } = judge(task.url, task.record ?? null, task.probe, acceptEncoding, clock.now());
		// A 304 against a weak tag promises semantic, not byte, equality: say so for archivers.
		const weak = verdict.reason === '304' && task.plan?.sendEtag === true && task.record?.etag?.startsWith('W/') === true;
		return { ...task, verdict: ordered(weak ? { ...verdict, weak } : verdict), next };
	});
}

function validatorsOf(record: UrlRecord): Pick<Verdict, 'etag' | 'lastModified' | 'hash'> {
	return compact({ etag: record.etag, lastModified: record.lastModified, hash: record.hash });
}

const VERDICT_ORDER = ['url', 'changed', 'reason', 'status', 'etag', 'weak', 'lastModified', 'hash', 'finalUrl', 'bytes', 'ms', 'error'] as const;

/** The verdict with its fields in the documented NDJSON order and absent ones dropped. */
function ordered(verdict: Verdict): Verdict {
	const out: Record<string, unknown> = {};
	for (const key of VERDICT_ORDER) if (verdict[key] !== undefined) out[key] = verdict[key];
	return out as unknown as Verdict;
}

/** Drops undefined fields, so records and NDJSON carry only what applies. */
export function compact<T extends object>(value: T): T {
	// A plain loop: this runs for every verdict and record, and the functional form showed in profiles.
	const out: Record<string, unknown> = {};
	for (const key in value) if (value[key] !== undefined) out[key] = value[key];
	return out as T;
}
