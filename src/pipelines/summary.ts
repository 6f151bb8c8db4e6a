import { RECORD_VERSION, type RunHostFigures, type RunRecord } from '../store/model/types.js';
import type { Task } from '../domain/task/types.js';
import { formatBytes } from '../base/util/bytes.js';
import { counted } from '../base/util/counted.js';

export { formatBytes };

/** Counts for the end-of-run line and for `run()` callers. */
export interface Summary {
	urls: number;
	changed: number;
	notModified: number;
	/** 200s whose body hash equals the stored one. */
	sameHash: number;
	/** (content rules) 200s whose bytes changed but whose counted content did not. */
	sameContent: number;
	/** (content rules) URLs whose rule changed: their content now is the new baseline. */
	rebaseline: number;
	errors: number;
	/** Input lines that were not http(s) URLs. */
	rejected: number;
	/** Sources that failed as a whole: a sitemap that can't be fetched, is not one or is cut short; a command that exited non-zero. */
	sourceErrors: number;
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
	/** Of `deferred`, those whose robots.txt could not be had: not checked because something failed. */
	unreachable: number;
	/** `unreachable` by robots.txt's error code (`ECONNREFUSED`, `HTTP_503`). */
	unreachableCodes: Record<string, number>;
	blockedHosts: string[];
	/** Per-origin figures, for run history and metrics. */
	hosts: Record<string, RunHostFigures>;
	elapsedMs: number;
	/** Changes that did not meet the run's `--when` condition (reason `unmet`): the new baseline, not reported. */
	unmet: number;
	/** Pages rendered in Chromium (`--render`). */
	rendered: number;
	/** Second fetches made to learn noise (`--learn-noise`). */
	noiseFetches: number;
	/** Product pages (`--product`) on which no offer was found (verdicts with `problem: 'no-offer'`). */
	noOffer: number;
	/** Who sent the requests, when not this process (see net/http/transport.ts). */
	sentBy?: string | undefined;
}

export function createSummary(): Summary {
	return {
		urls: 0,
		changed: 0,
		notModified: 0,
		sameHash: 0,
		sameContent: 0,
		rebaseline: 0,
		unmet: 0,
		rendered: 0,
		errors: 0,
		rejected: 0,
		sourceErrors: 0,
		duplicates: 0,
		bytes: 0,
		bytesSaved: 0,
		noiseFetches: 0,
		noOffer: 0,
		notDue: 0,
		later: 0,
		signalSkipped: 0,
		held: 0,
		filtered: 0,
		robots: 0,
		deferred: 0,
		unreachable: 0,
		unreachableCodes: {},
		blockedHosts: [],
		hosts: {},
		elapsedMs: 0,
	};
}

/** Adds one finished task to the summary. */
export function countTask(summary: Summary, task: Task): void {
	// Line 0 is about a source as a whole (see sources/), not a line of it.
	if (task.skip === 'rejected') summary[task.line === 0 ? 'sourceErrors' : 'rejected']++;
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
		if (verdict.reason === 'deferred' && verdict.error) {
			summary.unreachable++;
			summary.unreachableCodes[verdict.error.code] = (summary.unreachableCodes[verdict.error.code] ?? 0) + 1;
		}
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
	if (verdict.reason === 'same-hash') summary.sameHash++;
	else if (verdict.reason === 'same-content') summary.sameContent++;
	else if (verdict.reason === 'rebaseline') summary.rebaseline++;
	else if (verdict.reason === 'unmet') summary.unmet++;
	if (verdict.reason === 'error') summary.errors++;
	if (verdict.rendered) summary.rendered++;
	if (verdict.problem === 'no-offer') summary.noOffer++;
	if (task.noiseFetched) summary.noiseFetches++;
}

/**
 * Whether the run left URLs unchecked because something failed: an `error` verdict, a bad
 * input line, a source that failed, or a URL deferred because its robots.txt could not be had. What the CLI
 * exits 1 for. A URL robots.txt disallows, or defers by a Crawl-delay over the cap, was
 * left alone on purpose, and is no failure.
 *
 * @example
 * if (someFailed(summary)) process.exitCode = 1;
 */
export function someFailed(summary: Summary): boolean {
	return summary.errors > 0 || summary.rejected > 0 || summary.sourceErrors > 0 || summary.unreachable > 0;
}

/**
 * One line for stderr. `same-content` and `rebaselined` appear when there are any (content
 * rules), as do the reasons URLs were not checked. A watch, which checks its URLs again
 * and again, gives `watched`: the URLs it watches and its checks are then named apart.
 *
 * @example
 * formatSummary(summary) // '1000 URLs, 3 changed, 990 304s, 7 same-hash, 0 errors, 12.1 KB received (48.2 MB saved), 2.1s'
 * formatSummary(summary, { watched: 50 }) // '50 URLs watched, 130 checks, 3 changed, …'
 */
export function formatSummary(summary: Summary, options: { watched?: number | undefined } = {}): string {
	const parts = [
		options.watched === undefined ? counted(summary.urls, 'URL') : `${counted(options.watched, 'URL')} watched, ${counted(summary.urls, 'check')}`,
		`${summary.changed} changed`,
		`${summary.notModified} 304s`,
		`${summary.sameHash} same-hash`,
	];
	if (summary.sameContent > 0) parts.push(`${summary.sameContent} same-content`);
	if (summary.rebaseline > 0) parts.push(`${summary.rebaseline} rebaselined`);
	if (summary.unmet > 0) parts.push(`${summary.unmet} unmet (--when)`);
	if (summary.rendered > 0) parts.push(`${summary.rendered} rendered`);
	if (summary.noOffer > 0) parts.push(`${summary.noOffer} with no offer (--product)`);
	parts.push(counted(summary.errors, 'error'));
	if (summary.notDue > 0) parts.push(`${summary.notDue} not due`);
	if (summary.later > 0) parts.push(`${summary.later} left for later (--budget)`);
	if (summary.signalSkipped > 0) parts.push(`${summary.signalSkipped} skipped on a trusted lastmod or max-age`);
	if (summary.held > 0) parts.push(`${summary.held} held by the churn guard`);
	if (summary.filtered > 0) parts.push(`${summary.filtered} filtered out`);
	if (summary.robots > 0) parts.push(`${summary.robots} disallowed by robots.txt (not checked; --robots ignore for your own sites)`);
	if (summary.unreachable > 0)
		parts.push(`${summary.unreachable} not checked: robots.txt unreachable (${codes(summary.unreachableCodes)}), deferred to the next run`);
	const crawlDelay = summary.deferred - summary.unreachable;
	if (crawlDelay > 0) parts.push(`${crawlDelay} not checked: Crawl-delay above --max-crawl-delay, deferred to the next run`);
	if (summary.sourceErrors > 0) parts.push(counted(summary.sourceErrors, 'source error'));
	if (summary.rejected > 0) parts.push(counted(summary.rejected, 'bad line'));
	if (summary.duplicates > 0) parts.push(counted(summary.duplicates, 'duplicate'));
	if (summary.noiseFetches > 0) parts.push(`${counted(summary.noiseFetches, 'second fetch', 'second fetches')} for noise`);
	parts.push(`${formatBytes(summary.bytes)} received (${formatBytes(summary.bytesSaved)} saved)`);
	parts.push(`${(summary.elapsedMs / 1000).toFixed(1)}s`);
	if (summary.sentBy) parts.push(`sent by ${summary.sentBy}`);
	return parts.join(', ');
}

/** `ECONNREFUSED`, or `ECONNREFUSED 2, HTTP_503 1` when there are several. */
function codes(byCode: Record<string, number>): string {
	const entries = Object.entries(byCode).sort(([, a], [, b]) => b - a);
	return entries.length === 1 ? entries[0]![0] : entries.map(([code, count]) => `${code} ${count}`).join(', ');
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
		sameContent: summary.sameContent,
		rebaseline: summary.rebaseline,
		...(summary.unmet > 0 ? { unmet: summary.unmet } : {}),
		...(summary.rendered > 0 ? { rendered: summary.rendered } : {}),
		errors: summary.errors,
		deferred: summary.deferred,
		unreachable: summary.unreachable,
		bytes: summary.bytes,
		fullBytes: summary.bytes + summary.bytesSaved,
		notDue: summary.notDue,
		blockedHosts: summary.blockedHosts,
		hosts: summary.hosts,
	};
}
