import { formatTable } from '../../base/util/table.js';
import { formatBytes } from '../../base/util/bytes.js';
import type { HostRunRow, RunRow } from './rows.js';

/** A time for a table cell: UTC, to the second ('2024-12-02 14:10:05Z'). */
export function shortTime(iso: string): string {
	return `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;
}

/** A run's length for a table cell ('850ms', '12.3s', '4m05s', '2h10m'). */
export function shortDuration(ms: number): string {
	if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
	if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
	const seconds = Math.round(ms / 1000);
	if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
	return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}

export const percent = (ratio: number | null): string => (ratio === null ? '-' : `${(ratio * 100).toFixed(1)}%`);

/** TOOK: the run's length, and whether it is the hour a running watch is in, or one left unfinished. */
const took = (row: RunRow | HostRunRow): string => `${shortDuration(row.durationMs)}${row.live ? ' live' : row.unfinished ? ' unfinished' : ''}`;

/** The run history as an aligned table, oldest run first. */
export function formatRunTable(rows: readonly RunRow[]): string {
	const header = [
		'START',
		'TOOK',
		'URLS',
		'CHANGED',
		'304S',
		'SAME-HASH',
		'SAME-CONTENT',
		'ERRORS',
		'DEFERRED',
		'NOT-DUE',
		'RECEIVED',
		'FULL',
		'SAVED',
		'304%',
		'BLOCKED',
	];
	return formatTable(
		header,
		rows.map((row) => [
			shortTime(row.start),
			took(row),
			String(row.urls),
			String(row.changed),
			String(row.notModified),
			String(row.sameHash),
			String(row.sameContent),
			String(row.errors),
			String(row.deferred),
			String(row.notDue),
			formatBytes(row.bytes),
			formatBytes(row.fullBytes),
			formatBytes(row.bytesSaved),
			percent(row.ratio304),
			row.blockedHosts.length > 0 ? row.blockedHosts.join(',') : '-',
		]),
	);
}

/** One host's figures per run as an aligned table. */
export function formatHostTable(rows: readonly HostRunRow[]): string {
	return formatTable(
		['START', 'TOOK', 'HOST', 'URLS', 'CHANGED', 'COND', '304S', '304%'],
		rows.map((row) => [
			shortTime(row.start),
			took(row),
			row.host,
			String(row.urls),
			String(row.changed),
			String(row.conditional),
			String(row.notModified),
			percent(row.ratio304),
		]),
	);
}
