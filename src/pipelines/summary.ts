import { RECORD_VERSION, type RunHostFigures, type RunRecord } from '../store/types.js';
import type { Task } from '../types.js';
import { formatBytes } from '../util/bytes.js';

export { formatBytes };

/** Counts for the end-of-run line and for `run()` callers. */
export interface Summary {
	urls: number;
	changed: number;
	notModified: number;
	sameHash: number;
	errors: number;
	rejected: number;
	duplicates: number;
	/** Body bytes received on the wire. */
	bytes: number;
	/** Body bytes that 304s spared, by the size of each URL's last full download. */
	bytesSaved: number;
	/** Skipped: checked more recently than their interval. */
	notDue: number;
	/** Due, but left for a later run by \`--budget\` / \`--host-budget\`. */
	later: number;
	/** Skipped because their host's trusted sitemap lastmod or max-age says they have not changed. */
	signalSkipped: number;
	/** Changes the churn guard held back. */
	held: number;
	/** Dropped by a pipeline's filter stage. */
	filtered: number;
	/** Disallowed by their origin's robots.txt (reason `robots`): nothing sent. */
	robots: number;
	/** Deferred to the next run: robots.txt unreachable, or a Crawl-delay over the cap (reason `deferred`). */
	deferred: number;
	blockedHosts: string[];
	/** Per-origin figures, for run history and metrics. */
	hosts: Record<string, RunHostFigures>;
	elapsedMs: number;
	/** Second fetches made to learn noise (`--learn-noise`). */
	noiseFetches: number;
	/** Who sent the requests, when not this process (see http/transport.ts). */
	sentBy?: string | undefined;
}

export function createSummary(): Summary {
	return { urls: 0, changed: 0, notModified: 0, sameHash: 0, errors: 0, rejected: 0, duplicates: 0, bytes: 0, bytesSaved: 0, noiseFetches: 0, notDue: 0, later: 0, signalSkipped: 0, held: 0, filtered: 0, robots: 0, deferred: 0, blockedHosts: [], hosts: {}, elapsedMs: 0 };
}

/** Adds one finished task to the summary. */
export function countTask(summary: Summary, task: Task): void {
	if (task.skip === 'rejected') summary.rejected++;
	else if (task.skip === 'duplicate') summary.duplicates++;
	else if (task.skip === 'not-due') summary.notDue++;
	else if (task.skip === 'later') summary.later++;
	else if (task.skip === 'signal') summary.signalSkipped++;
	else if (task.skip === 'held') summary.held++;
	else if (task.skip === 'filtered') summary.filtered++;
	const verdict = task.verdict;
	if (!verdict) return;
	summary.urls++;
	if (verdict.reason === 'robots' || verdict.reason === 'deferred') {
		// Nothing was sent for it: it is in no host's figures.
		summary[verdict.reason]++;
		return;
	}
	if (task.origin !== undefined) {
		const host = (summary.hosts[task.origin] ??= { urls: 0, changed: 0, conditional: 0, notModified: 0 });
		host.urls++;
		if (verdict.changed) host.changed++;
		if (task.plan?.sendEtag || task.plan?.sendLastModified) host.conditional++;
		if (verdict.reason === '304') host.notModified++;
	}
	summary.bytes += verdict.bytes ?? 0;
	if (verdict.changed) summary.changed++;
	if (verdict.reason === '304') {
		summary.notModified++;
		summary.bytesSaved += Math.max(0, (task.record?.size ?? 0) - (verdict.bytes ?? 0));
	}
	if (verdict.reason === 'same-hash' || verdict.reason === 'same-content' || verdict.reason === 'rebaseline') summary.sameHash++;
	if (verdict.reason === 'error') summary.errors++;
	if (task.noiseFetched) summary.noiseFetches++;
}

/**
 * One line for stderr.
 *
 * @example
 * formatSummary(summary) // '1000 URLs, 3 changed, 990 304s, 7 same-hash, 0 errors, 12.1 KB received (48.2 MB saved), 2.1s'
 */
export function formatSummary(summary: Summary): string {
	const parts = [
		`${summary.urls} URLs`,
		`${summary.changed} changed`,
		`${summary.notModified} 304s`,
		`${summary.sameHash} same-hash`,
		`${summary.errors} errors`,
	];
	if (summary.notDue > 0) parts.push(`${summary.notDue} not due`);
	if (summary.later > 0) parts.push(`${summary.later} left for later (--budget)`);
	if (summary.signalSkipped > 0) parts.push(`${summary.signalSkipped} skipped on a trusted lastmod or max-age`);
	if (summary.held > 0) parts.push(`${summary.held} held by the churn guard`);
	if (summary.filtered > 0) parts.push(`${summary.filtered} filtered out`);
	if (summary.robots > 0) parts.push(`${summary.robots} disallowed by robots.txt (not checked; --robots ignore for your own sites)`);
	if (summary.deferred > 0) parts.push(`${summary.deferred} deferred to the next run (robots.txt)`);
	if (summary.rejected > 0) parts.push(`${summary.rejected} bad lines`);
	if (summary.duplicates > 0) parts.push(`${summary.duplicates} duplicates`);
	if (summary.noiseFetches > 0) parts.push(`${summary.noiseFetches} second fetches for noise`);
	parts.push(`${formatBytes(summary.bytes)} received (${formatBytes(summary.bytesSaved)} saved)`);
	parts.push(`${(summary.elapsedMs / 1000).toFixed(1)}s`);
	if (summary.sentBy) parts.push(`sent by ${summary.sentBy}`);
	return parts.join(', ');
}

/**
 * The run-history row for a finished run. A full download is estimated per URL as its
 * body size this run, or for a 304 the size of its last full download.
 *
 * @example
 * store.batch([{ type: 'putRun', key: runKey(startedAt), value: runRecord(summary, startedAt, Date.now()) }])
 */
export function runRecord(summary: Summary, startedAt: number, endedAt: number): RunRecord {
	return {
		v: RECORD_VERSION,
		startedAt,
		endedAt,
		urls: summary.urls,
		changed: summary.changed,
		notModified: summary.notModified,
		sameHash: summary.sameHash,
		errors: summary.errors,
		bytes: summary.bytes,
		fullBytes: summary.bytes + summary.bytesSaved,
		notDue: summary.notDue,
		blockedHosts: summary.blockedHosts,
		hosts: summary.hosts,
	};
}
