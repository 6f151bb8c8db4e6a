import { hostStats, type HostStats } from '../../net/hosts/stats.js';
import { runKey } from '../../store/model/run-key.js';
import type { RuleShown, RunChange, RunRecord, StoreReader } from '../../store/model/types.js';
import { loadRuns, runPoints, runRow, type RunRow } from '../../outputs/history/rows.js';
import { renderSvg } from '../../outputs/history/svg.js';

/** Which runs a report covers: the last `runs` (default 1), or those started at `since` (epoch ms) or later. */
export interface ReportScope {
	runs?: number | undefined;
	since?: number | undefined;
}

/** One host as the report's table shows it: `revisit stats` figures, with its share of the covered runs. */
export interface ReportHost extends HostStats {
	/** URLs of this host judged, and changed, in the covered runs. */
	checked: number;
	changed: number;
}

/** Everything one report page shows, as plain data (embedded in the page as JSON). */
export interface ReportData {
	generatedAt: string;
	/** Where the figures came from (the store's description). */
	source: string;
	runs: RunRow[];
	summary: {
		runs: number;
		urls: number;
		changed: number;
		notModified: number;
		sameHash: number;
		sameContent: number;
		rebaseline: number;
		errors: number;
		deferred: number;
		notDue: number;
		bytes: number;
		bytesSaved: number;
	};
	/** Changed URLs with why, newest run first; `run` is the run's start (ISO). */
	changes: Array<RunChange & { run: string }>;
	/** The content rules the changes name, by id, as written (the newest run's spec of an id). */
	rules: Record<string, RuleShown>;
	/** Errors counted by code over the covered runs, and some of their URLs. */
	errorCounts: Record<string, number>;
	errors: Array<RunChange & { run: string }>;
	/** Left out by the runs' caps, and runs whose detail is no longer (or was never) kept. */
	dropped: { changes: number; errors: number; runsWithoutDetail: number };
	hosts: ReportHost[];
	/** The run history chart (every run in the store, up to the last 120), as SVG. */
	svg: string;
	/** Where each changed URL's page is: files beside a written report (hrefs by URL), or a watch's `url?u=` query. */
	urlPages?: { files: Record<string, string> } | { query: string } | undefined;
}

/** The runs a scope covers, oldest first. */
export function coveredRuns(runs: readonly RunRecord[], scope: ReportScope): RunRecord[] {
	if (scope.since !== undefined) return runs.filter((run) => run.startedAt >= scope.since!);
	return runs.slice(-(scope.runs ?? 1));
}

/** The summary cards' figures: the rows' counts added up. */
export function summaryOf(rows: readonly RunRow[]): ReportData['summary'] {
	const summary = {
		runs: rows.length,
		urls: 0,
		changed: 0,
		notModified: 0,
		sameHash: 0,
		sameContent: 0,
		rebaseline: 0,
		errors: 0,
		deferred: 0,
		notDue: 0,
		bytes: 0,
		bytesSaved: 0,
	};
	for (const row of rows) {
		summary.urls += row.urls;
		summary.changed += row.changed;
		summary.notModified += row.notModified;
		summary.sameHash += row.sameHash;
		summary.sameContent += row.sameContent;
		summary.rebaseline += row.rebaseline;
		summary.errors += row.errors;
		summary.deferred += row.deferred;
		summary.notDue += row.notDue;
		summary.bytes += row.bytes;
		summary.bytesSaved += row.bytesSaved;
	}
	return summary;
}

/** URLs checked and changed per origin over `runs`, from the runs' rows. */
export function hostFigures(runs: readonly RunRecord[]): Map<string, { checked: number; changed: number }> {
	const figures = new Map<string, { checked: number; changed: number }>();
	for (const run of runs) {
		for (const [origin, host] of Object.entries(run.hosts ?? {})) {
			const sum = figures.get(origin) ?? { checked: 0, changed: 0 };
			sum.checked += host.urls;
			sum.changed += host.changed;
			figures.set(origin, sum);
		}
	}
	return figures;
}

/** Runs the history chart shows, the newest. */
export const CHART_RUNS = 120;

/** The history chart of the newest CHART_RUNS of `all`. */
export const historyChart = (all: readonly RunRecord[]): string => renderSvg(runPoints(all.slice(-CHART_RUNS)), { title: 'revisit history' });

/** The hosts table: each of `origins` with its `revisit stats` figures and what `figures` counted; an origin with no record left out. */
export async function hostRows(store: StoreReader, origins: readonly string[], figures: ReturnType<typeof hostFigures>): Promise<ReportData['hosts']> {
	const records = await store.getHosts([...origins]);
	return origins.flatMap((origin, i) => (records[i] ? [{ ...hostStats(origin, records[i]!), ...figures.get(origin)! }] : []));
}

/**
 * Reads what a report shows from the store: the covered runs' rows and details (changed
 * and failed URLs), the hosts they probed with their `revisit stats` figures, and the
 * history chart.
 *
 * @example
 * const data = await loadReport(store, { runs: 3 }, '.revisit');
 */
export async function loadReport(store: StoreReader, scope: ReportScope, source: string, now = Date.now()): Promise<ReportData> {
	const all = await loadRuns(store);
	const runs = coveredRuns(all, scope);
	const details = await store.getRunDetails(runs.map((run) => runKey(run.startedAt)));
	const rows = runs.map(runRow);
	const summary = summaryOf(rows);
	const changes: ReportData['changes'] = [];
	const errors: ReportData['errors'] = [];
	const errorCounts: Record<string, number> = {};
	const rules: Record<string, RuleShown> = {};
	const dropped = { changes: 0, errors: 0, runsWithoutDetail: 0 };
	// Newest run first: the latest change of a URL is the one a reader looks for.
	for (let i = runs.length - 1; i >= 0; i--) {
		const detail = details[i];
		const run = rows[i]!.start;
		if (!detail) {
			if (runs[i]!.changed > 0 || runs[i]!.errors > 0) dropped.runsWithoutDetail++;
			continue;
		}
		for (const change of detail.changes) changes.push({ ...change, run });
		for (const [id, spec] of Object.entries(detail.rules ?? {})) rules[id] ??= spec;
		for (const error of detail.errors) errors.push({ ...error, run });
		for (const [code, count] of Object.entries(detail.errorCounts)) errorCounts[code] = (errorCounts[code] ?? 0) + count;
		dropped.changes += detail.dropped.changes;
		dropped.errors += detail.dropped.errors;
	}
	const figures = hostFigures(runs);
	const hosts = await hostRows(store, [...figures.keys()].sort(), figures);
	return {
		generatedAt: new Date(now).toISOString(),
		source,
		runs: rows,
		summary,
		changes,
		rules,
		errorCounts,
		errors,
		dropped,
		hosts,
		svg: historyChart(all),
	};
}
