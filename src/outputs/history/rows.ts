import { matchesHost } from '../../net/hosts/stats.js';
import type { RunRecord, StoreReader } from '../../store/model/types.js';

/** One sweep run as `revisit history` shows it. */
export interface RunRow {
	/** ISO 8601 start and end times (UTC). */
	start: string;
	end: string;
	durationMs: number;
	urls: number;
	changed: number;
	notModified: number;
	/** Runs recorded before `sameContent` was kept count `same-content` and `rebaseline` here too (and 0 in those two). */
	sameHash: number;
	sameContent: number;
	rebaseline: number;
	errors: number;
	/** URLs not checked because robots.txt deferred them, and of those the ones whose robots.txt could not be had. */
	deferred: number;
	unreachable: number;
	notDue: number;
	/** Body bytes received. */
	bytes: number;
	/** Body bytes a full download of every URL would have cost. */
	fullBytes: number;
	/** fullBytes - bytes: what conditional requests spared. */
	bytesSaved: number;
	/** Requests that carried validators, and 304s per such request (null when none was sent). */
	conditional: number;
	ratio304: number | null;
	blockedHosts: string[];
	/** Changes that did not meet the run's `--when` condition, and the condition; absent without one. */
	unmet?: number;
	when?: string;
	/** The hour a running watch is in: its figures so far (`end` is now). */
	live?: true;
	/** Stored before the run ended: a watch still running elsewhere, or killed (its figures as of its last committed batch). */
	unfinished?: true;
}

/** One host's figures in one run, for `revisit history --host`. */
export interface HostRunRow {
	start: string;
	end: string;
	durationMs: number;
	host: string;
	urls: number;
	changed: number;
	conditional: number;
	notModified: number;
	ratio304: number | null;
	/** As in RunRow: the hour a running watch is in, or one stored before its end. */
	live?: true;
	unfinished?: true;
}

/** What the charts and metrics need of a run (or of one host's share of it). */
export interface RunPoint {
	startedAt: number;
	changed: number;
	ratio304: number | null;
}

const ratio = (notModified: number, conditional: number): number | null => (conditional > 0 ? notModified / conditional : null);
const iso = (ms: number): string => new Date(ms).toISOString();

/** Every run row in the store, oldest first (run keys sort by start time). */
export async function loadRuns(store: StoreReader): Promise<RunRecord[]> {
	const runs: RunRecord[] = [];
	for await (const [, run] of store.runEntries()) runs.push(run);
	return runs;
}

/** Conditional requests and 304s of a run, summed over its hosts (optionally only those matching `host`). */
export function runTotals(run: RunRecord, host?: string): { urls: number; changed: number; conditional: number; notModified: number; matched: boolean } {
	const totals = { urls: 0, changed: 0, conditional: 0, notModified: 0, matched: false };
	for (const [origin, figures] of Object.entries(run.hosts ?? {})) {
		if (host !== undefined && !matchesHost(origin, host)) continue;
		totals.matched = true;
		totals.urls += figures.urls;
		totals.changed += figures.changed;
		totals.conditional += figures.conditional;
		totals.notModified += figures.notModified;
	}
	return totals;
}

/**
 * A stored run as a history row.
 *
 * @example
 * runRow(run) // { start: '2024-12-02T14:10:00.000Z', urls: 300, changed: 3, ratio304: 0.99, ... }
 */
export function runRow(run: RunRecord): RunRow {
	const { conditional, notModified } = runTotals(run);
	return {
		start: iso(run.startedAt),
		end: iso(run.endedAt),
		durationMs: run.endedAt - run.startedAt,
		urls: run.urls,
		changed: run.changed,
		notModified: run.notModified,
		sameHash: run.sameHash,
		sameContent: run.sameContent ?? 0,
		rebaseline: run.rebaseline ?? 0,
		errors: run.errors,
		deferred: run.deferred ?? 0,
		unreachable: run.unreachable ?? 0,
		notDue: run.notDue ?? 0,
		bytes: run.bytes,
		fullBytes: run.fullBytes,
		bytesSaved: Math.max(0, run.fullBytes - run.bytes),
		conditional,
		ratio304: ratio(notModified, conditional),
		blockedHosts: run.blockedHosts ?? [],
		...(run.when === undefined ? {} : { unmet: run.unmet ?? 0, when: run.when }),
		...(run.live ? { live: true as const } : run.unfinished ? { unfinished: true as const } : {}),
	};
}

/** The per-host rows of `runs` for hosts matching `host` (an origin, or a hostname matching any scheme and port). */
export function hostRunRows(runs: readonly RunRecord[], host: string): HostRunRow[] {
	const rows: HostRunRow[] = [];
	for (const run of runs) {
		for (const [origin, figures] of Object.entries(run.hosts ?? {})) {
			if (!matchesHost(origin, host)) continue;
			rows.push({
				start: iso(run.startedAt),
				end: iso(run.endedAt),
				durationMs: run.endedAt - run.startedAt,
				host: origin,
				urls: figures.urls,
				changed: figures.changed,
				conditional: figures.conditional,
				notModified: figures.notModified,
				ratio304: ratio(figures.notModified, figures.conditional),
				...(run.live ? { live: true as const } : run.unfinished ? { unfinished: true as const } : {}),
			});
		}
	}
	return rows;
}

/**
 * Chart points, one per run: the run's changed count and 304 ratio, or with `host` only
 * that host's share (runs that did not probe it are left out).
 */
export function runPoints(runs: readonly RunRecord[], host?: string): RunPoint[] {
	const points: RunPoint[] = [];
	for (const run of runs) {
		const totals = runTotals(run, host);
		if (host !== undefined && !totals.matched) continue;
		points.push({
			startedAt: run.startedAt,
			changed: host === undefined ? run.changed : totals.changed,
			ratio304: ratio(totals.notModified, totals.conditional),
		});
	}
	return points;
}
