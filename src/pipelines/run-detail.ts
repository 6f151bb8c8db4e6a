import { offerChange } from '../domain/product/fields.js';
import { ruleId, type RuleSpec } from '../domain/content/rules.js';
import { runKey } from '../store/model/run-key.js';
import {
	RECORD_VERSION,
	type ChangeSide,
	type RuleShown,
	type RunChange,
	type RunDetail,
	type StoreOperation,
	type UrlRecord,
	type StoreReader,
} from '../store/model/types.js';
import type { Task } from '../domain/task/types.js';

/** How much of a run its detail keeps: changed URLs, failed URLs (and per error code), the diffs' characters, and how many runs keep one. */
export const DETAIL_CAPS = { changes: 5000, errors: 1000, errorsPerCode: 50, diffChars: 3_000_000, runs: 50 } as const;

/** A run's detail while it runs: the diff characters so far, and the run's rules by id (those its changes name are kept). */
export type DetailDraft = RunDetail & { diffChars: number; specs: Map<string, RuleSpec> };

/** An empty detail for the run started at `startedAt`, run with content rules `rules`. */
export function createRunDetail(startedAt: number, rules: readonly RuleSpec[] = []): DetailDraft {
	// The first spec of an id wins, as the first rule that matches a URL does.
	const specs = new Map<string, RuleSpec>();
	for (const spec of rules) if (!specs.has(ruleId(spec))) specs.set(ruleId(spec), spec);
	return { v: RECORD_VERSION, startedAt, changes: [], errors: [], errorCounts: {}, dropped: { changes: 0, errors: 0 }, diffChars: 0, specs };
}

const side = (record: Pick<UrlRecord, 'etag' | 'lastModified' | 'hash' | 'content'> & { status?: number | undefined }): ChangeSide => {
	const out: ChangeSide = {};
	if (record.status !== undefined) out.status = record.status;
	if (record.etag !== undefined) out.etag = record.etag;
	if (record.lastModified !== undefined) out.lastModified = record.lastModified;
	if (record.hash !== undefined) out.hash = record.hash;
	if (record.content !== undefined && record.content.rules !== '-') out.content = record.content.hash;
	return out;
};

/** A rule spec with only the fields it sets (plain JSON for the store). */
function shown(spec: RuleSpec): RuleShown {
	const out: RuleShown = {};
	if (spec.match !== undefined) out.match = spec.match;
	if (spec.select?.length) out.select = [...spec.select];
	if (spec.exclude?.length) out.exclude = [...spec.exclude];
	if (spec.text) out.text = true;
	if (spec.ignore?.length) out.ignore = [...spec.ignore];
	if (spec.pointer?.length) out.pointer = [...spec.pointer];
	if (spec.learn) out.learn = true;
	if (spec.product) out.product = true;
	if (spec.price?.length) out.price = [...spec.price];
	if (spec.availability?.length) out.availability = [...spec.availability];
	return out;
}

/**
 * Adds a finished task to the run's detail when its verdict is a change or an error:
 * why it changed (validators and hashes before and after, audit, rule, noise) and its
 * word diff, within DETAIL_CAPS (what is left out is counted in `dropped`).
 *
 * @example
 * tasks$.pipe(tap((task) => addToDetail(detail, task)))
 */
export function addToDetail(detail: DetailDraft, task: Task): void {
	const verdict = task.verdict;
	if (!verdict || !(verdict.changed || verdict.reason === 'error')) return;
	const change: RunChange = { url: verdict.url, reason: verdict.reason, changed: verdict.changed };
	if (task.origin !== undefined) change.origin = task.origin;
	if (verdict.bytes !== undefined) change.bytes = verdict.bytes;
	if (verdict.note !== undefined) change.note = verdict.note;
	if (verdict.error) {
		const code = verdict.error.code;
		detail.errorCounts[code] = (detail.errorCounts[code] ?? 0) + 1;
		if (detail.errors.length >= DETAIL_CAPS.errors || detail.errorCounts[code]! > DETAIL_CAPS.errorsPerCode) {
			detail.dropped.errors++;
			return;
		}
		change.error = verdict.error;
		if (verdict.status !== undefined) change.after = { status: verdict.status };
		detail.errors.push(change);
		return;
	}
	if (detail.changes.length >= DETAIL_CAPS.changes) {
		detail.dropped.changes++;
		return;
	}
	if (task.record) change.before = side(task.record);
	change.after = side({
		...(task.next ?? {}),
		status: verdict.status,
		etag: verdict.etag ?? task.next?.etag,
		lastModified: verdict.lastModified ?? task.next?.lastModified,
		hash: verdict.hash ?? task.next?.hash,
	});
	if (verdict.reason === 'audit' || task.probe?.audit !== undefined) change.audit = true;
	const rule = task.next?.content?.rules ?? task.record?.content?.rules;
	if (rule !== undefined && rule !== '-') {
		change.rule = rule;
		const spec = detail.specs.get(rule);
		if (spec && !detail.rules?.[rule]) (detail.rules ??= {})[rule] = shown(spec);
	}
	if (verdict.product) {
		const { prices: _prices, ...after } = verdict.product;
		// Its headline in the report, worded as every other output words an offer's move.
		change.product = { after, ...(verdict.previous ? { before: verdict.previous, said: offerChange(after, verdict.previous) } : {}) };
	}
	const noise = task.noise ?? task.record?.noise?.length ?? 0;
	if (noise > 0) change.noise = noise;
	const word = task.wordDiff;
	if (word) {
		change.text = word.why;
		if (word.kept !== undefined) change.kept = word.kept;
		if (word.hunks) {
			const chars = word.hunks.reduce((sum, hunk) => sum + hunk.reduce((inner, [, text]) => inner + text.length, 0), 0);
			if (detail.diffChars + chars <= DETAIL_CAPS.diffChars) {
				change.diff = word.hunks;
				detail.diffChars += chars;
				if (word.cut) change.cut = true;
			} else change.text = 'report-cap';
		}
	}
	detail.changes.push(change);
}

/** A detail as the store keeps it: without the draft's working fields, its lists copied as they stand. */
export function detailValue(detail: DetailDraft): RunDetail {
	const { diffChars: _chars, specs: _specs, ...value } = detail;
	return { ...value, changes: [...value.changes], errors: [...value.errors], errorCounts: { ...value.errorCounts }, dropped: { ...value.dropped } };
}

/**
 * The store operations that keep a finished run's detail (when it has anything) and drop
 * the details of runs that fell out of the last DETAIL_CAPS.runs.
 */
export async function detailOperations(store: StoreReader, detail: DetailDraft): Promise<StoreOperation[]> {
	if (detail.changes.length === 0 && detail.errors.length === 0 && detail.dropped.changes === 0 && detail.dropped.errors === 0) return [];
	const own = runKey(detail.startedAt);
	const operations: StoreOperation[] = [{ type: 'putRunDetail', key: own, value: detailValue(detail) }];
	const keys: string[] = [];
	// A watch's hour may have stored its row as it went (live-run.ts): it is not counted among the others.
	for await (const [key] of store.runEntries()) if (key !== own) keys.push(key);
	// This run's row is not counted: the last `runs - 1` others keep theirs.
	for (const key of keys.slice(0, Math.max(0, keys.length - (DETAIL_CAPS.runs - 1))).slice(-10)) operations.push({ type: 'delRunDetail', key });
	return operations;
}
