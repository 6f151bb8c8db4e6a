import { runKey } from '../../store/model/run-key.js';
import type { RuleShown, RunRecord, StoreReader } from '../../store/model/types.js';
import { CHART_RUNS, historyChart, hostFigures, hostRows, summaryOf, type ReportData } from './data.js';
import { runRow } from '../../outputs/history/rows.js';

/** Where a page of changes starts: the run (its start, epoch ms) and how many of its changes come before. */
export interface PageCursor {
	run: number;
	skip: number;
}

/** What a page shows of the changes, and where the next one starts. */
export interface Paging {
	limit: number;
	/** Where this page started (absent: the newest change). */
	from?: PageCursor | undefined;
	/** Where the next (older) page starts; absent on the last. */
	next?: PageCursor | undefined;
	/** The cursor's run is no longer among the covered runs (it aged out since the link was made). */
	gone: boolean;
	/** Details read for this page: its errors are those of these runs. */
	runsRead: number;
	errorsLeftOut: number;
	hostsLeftOut: number;
}

/** How much a page shows, and of which runs. */
export interface PageScope {
	/** The last `runs` runs are covered. */
	runs: number;
	/** Most changes, errors and hosts listed on one page. */
	limit: number;
	from?: PageCursor | undefined;
}

/** The last `keep` run rows, without holding more than twice that while reading. */
async function lastRuns(store: StoreReader, keep: number): Promise<RunRecord[]> {
	const runs: RunRecord[] = [];
	for await (const [, run] of store.runEntries()) {
		runs.push(run);
		if (runs.length >= keep * 2) runs.splice(0, runs.length - keep);
	}
	return runs.slice(-keep);
}

/**
 * One page of the report, for a page served on every request (`revisit watch --listen`):
 * at most `limit` changes, newest first, from `from` on, reading run details one run at
 * a time and only until the page is full; the errors listed are those of the runs read;
 * the hosts are the `limit` with the most changes. What it shows does not grow with the
 * store: the summary and the chart come from the run rows, which are one per run.
 *
 * @example
 * const { data, paging } = await loadReportPage(store, { runs: 24, limit: 200 }, '.revisit');
 */
export async function loadReportPage(store: StoreReader, scope: PageScope, source: string, now = Date.now()): Promise<{ data: ReportData; paging: Paging }> {
	const all = await lastRuns(store, Math.max(CHART_RUNS, scope.runs));
	const runs = all.slice(-scope.runs);
	const rows = runs.map(runRow);
	const changes: ReportData['changes'] = [];
	const errors: ReportData['errors'] = [];
	const errorCounts: Record<string, number> = {};
	const rules: Record<string, RuleShown> = {};
	const dropped = { changes: 0, errors: 0, runsWithoutDetail: 0 };
	const paging: Paging = { limit: scope.limit, from: scope.from, gone: false, runsRead: 0, errorsLeftOut: 0, hostsLeftOut: 0 };
	let start = runs.length - 1;
	let skip = 0;
	if (scope.from) {
		start = runs.findIndex((run) => run.startedAt === scope.from!.run);
		paging.gone = start === -1;
		skip = scope.from.skip;
	}
	let i = start;
	// Newest run first, one detail at a time: a full page stops the reading.
	for (; i >= 0 && changes.length < scope.limit; i--, skip = 0) {
		const run = runs[i]!;
		if (run.changed === 0 && run.errors === 0) continue;
		const [detail] = await store.getRunDetails([runKey(run.startedAt)]);
		paging.runsRead++;
		if (!detail) {
			dropped.runsWithoutDetail++;
			continue;
		}
		const when = rows[i]!.start;
		const taken = detail.changes.slice(skip, skip + scope.limit - changes.length);
		for (const change of taken) {
			changes.push({ ...change, run: when });
			const spec = change.rule === undefined ? undefined : detail.rules?.[change.rule];
			if (spec) rules[change.rule!] ??= spec;
		}
		for (const error of detail.errors) {
			if (errors.length < scope.limit) errors.push({ ...error, run: when });
			else paging.errorsLeftOut++;
		}
		for (const [code, count] of Object.entries(detail.errorCounts)) errorCounts[code] = (errorCounts[code] ?? 0) + count;
		dropped.changes += detail.dropped.changes;
		dropped.errors += detail.dropped.errors;
		if (skip + taken.length < detail.changes.length) paging.next = { run: run.startedAt, skip: skip + taken.length };
	}
	if (!paging.next) {
		// The page ended with a run: the next starts at the next older run with changes.
		for (; i >= 0; i--) {
			if (runs[i]!.changed > 0) {
				paging.next = { run: runs[i]!.startedAt, skip: 0 };
				break;
			}
		}
	}
	const figures = hostFigures(runs);
	const origins = [...figures.keys()].sort(
		(a, b) => figures.get(b)!.changed - figures.get(a)!.changed || figures.get(b)!.checked - figures.get(a)!.checked || (a < b ? -1 : 1),
	);
	const shown = origins.slice(0, scope.limit);
	paging.hostsLeftOut = origins.length - shown.length;
	const hosts = await hostRows(store, shown, figures);
	const data: ReportData = {
		generatedAt: new Date(now).toISOString(),
		source,
		runs: rows,
		summary: summaryOf(rows),
		changes,
		rules,
		errorCounts,
		errors,
		dropped,
		hosts,
		svg: historyChart(all),
	};
	return { data, paging };
}
