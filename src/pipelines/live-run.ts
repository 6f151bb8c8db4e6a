import { runKey } from '../store/model/run-key.js';
import type { RunDetail, RunRecord, StoreOperation } from '../store/model/types.js';
import { detailValue, type DetailDraft } from './run-detail.js';

/** A run under way, as a reader sees it before its row is stored at its end: its key, its row and detail so far. */
export interface LiveRun {
	readonly key: string;
	/** Its row now (`unfinished`), ended now. */
	row(): RunRecord;
	/** Its changed and failed URLs so far; undefined while it has none. */
	detail(): RunDetail | undefined;
	/** True once its end has stored its row for good. */
	readonly ended: boolean;
}

/** How often a run under way writes its row and its detail with its commits (`RunPlan.live`). */
export interface LiveOptions {
	/** Least wall ms between two writes of the row. */
	rowEveryMs: number;
	/** Least wall ms between two writes of the detail (it can be large: up to DETAIL_CAPS). */
	detailEveryMs: number;
	/** Called once the run starts, with its live view. */
	started?(run: LiveRun): void;
	/** The wall clock (default Date.now). */
	wallNow?: () => number;
}

/** A run's live view and the writes that keep its row in the store as it goes. */
export interface LiveWriter {
	run: LiveRun;
	/** The row (and the detail) to write with this commit batch, when their time has come. */
	operations(): StoreOperation[];
	/** The run's end stored its row. */
	end(): void;
}

const entriesOf = (detail: DetailDraft): number => detail.changes.length + detail.errors.length + detail.dropped.changes + detail.dropped.errors;

/**
 * Writes a run's row as it goes, in the commit batches of its checks, at most every
 * `rowEveryMs` of wall time (and its detail every `detailEveryMs`), marked `unfinished`:
 * a run that is killed leaves its row as of a recent commit, and the records it counts
 * are in that commit or an earlier one. The run's own end writes the finished row over it.
 *
 * @example
 * const live = liveWriter({ started, row: () => runRecord(summary, started, clock.now()), detail }, { rowEveryMs: 1000, detailEveryMs: 60_000 });
 * commit({ extra: () => live.operations() }, store);
 */
export function liveWriter(source: { started: number; row(): RunRecord; detail: DetailDraft }, options: LiveOptions): LiveWriter {
	const wallNow = options.wallNow ?? Date.now;
	const key = runKey(source.started);
	let ended = false;
	let rowAt = -Infinity;
	let detailAt = -Infinity;
	let detailWritten = 0;
	const run: LiveRun = {
		key,
		row: () => ({ ...source.row(), unfinished: true }),
		detail: () => (entriesOf(source.detail) === 0 ? undefined : detailValue(source.detail)),
		get ended() {
			return ended;
		},
	};
	return {
		run,
		operations() {
			const now = wallNow();
			const operations: StoreOperation[] = [];
			if (now - rowAt >= options.rowEveryMs) {
				rowAt = now;
				operations.push({ type: 'putRun', key, value: run.row() });
			}
			const entries = entriesOf(source.detail);
			if (entries > detailWritten && now - detailAt >= options.detailEveryMs) {
				detailAt = now;
				detailWritten = entries;
				operations.push({ type: 'putRunDetail', key, value: detailValue(source.detail) });
			}
			return operations;
		},
		end() {
			ended = true;
		},
	};
}
