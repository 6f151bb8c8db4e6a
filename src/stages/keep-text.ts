import type { MonoTypeOperatorFunction } from 'rxjs';
import { inOrder } from '../base/flow/in-order.js';
import { wordDiff } from '../domain/content/word-diff.js';
import { blobSize, packText, textKey, unpackText } from '../store/model/text-blob.js';
import type { KeptText, StoreOperation, TextBlob, StoreReader, VersionLog } from '../store/model/types.js';
import { addVersion } from '../domain/versions/add.js';
import type { Task } from '../domain/task/types.js';

export interface KeepTextOptions {
	/** Keep new text (`--keep-text` and `--keep-text-total` both above 0); off, records lose their text as pages change. */
	keep: boolean;
	/** Versions of its text kept per page (`--keep-versions`); 0 or absent: the newest only, no log (src/domain/versions). */
	versions?: number;
	/** The clock: when a page took its text (a blob's `at`, what eviction orders by). */
	now?: () => number;
	/**
	 * Whether the run's `--when` holds this change back (stages/when.ts, which runs after
	 * and turns its verdict `unmet`): its version is then marked `held`, so that `revisit
	 * log` never lists it as reported.
	 */
	held?: ((task: Task) => boolean) | undefined;
}

/**
 * The run's share of the store's kept text: the total as the runs counted it (the last
 * run row's `textBytes`, read the first time a page needs it, plus the blobs this run
 * added), the blobs this run wrote, and the operations that write them, drained into the
 * commit's batches (`drain`). Blobs no record points to stay counted until collected
 * (store/text-gc.ts).
 */
export interface TextShelf {
	/** Undefined until loaded. */
	bytes: number | undefined;
	load(): Promise<number>;
	/** Keys of the blobs written by this run (they may not be in the store yet). */
	written: Set<string>;
	/** The blob operations not yet handed to a batch. */
	drain(): StoreOperation[];
	pending: StoreOperation[];
}

/** A shelf over `store`'s run rows and text blobs. */
export function createTextShelf(store: StoreReader): TextShelf {
	const shelf: TextShelf = {
		bytes: undefined,
		async load() {
			if (shelf.bytes !== undefined) return shelf.bytes;
			let last = 0;
			for await (const [, run] of store.runEntries()) if (run.textBytes !== undefined) last = run.textBytes;
			shelf.bytes ??= last;
			return shelf.bytes;
		},
		written: new Set(),
		pending: [],
		drain() {
			const out = shelf.pending;
			shelf.pending = [];
			return out;
		},
	};
	return shelf;
}

/**
 * The word diff of a page's kept text against its new text. Where either was cut at the
 * per-page cap, `kept` says how far the texts go: a change past it cannot show, so a diff
 * with no change in words is `beyond-cut`, never "only whitespace". Texts that are the
 * same (a change in markup only, as visible text reads it) are `same-text`.
 */
function diffOf(old: { text: string; cut?: boolean | undefined }, counted: { text: string; cut: boolean }): NonNullable<Task['wordDiff']> {
	const kept = Math.min(old.cut ? Buffer.byteLength(old.text) : Infinity, counted.cut ? Buffer.byteLength(counted.text) : Infinity);
	const cut = Number.isFinite(kept) ? { kept } : {};
	const diff = wordDiff(old.text, counted.text);
	if (!diff) return { why: 'too-different', ...cut };
	const words = diff.hunks.some((hunk) => hunk.some(([op, text]) => op !== 0 && /\S/.test(text)));
	if (!words && Number.isFinite(kept)) return { why: 'beyond-cut', ...cut };
	// The hash moved but the text compared did not: markup, attributes, or what visible text leaves out.
	if (diff.hunks.length === 0) return { why: 'same-text' };
	return { hunks: diff.hunks, why: 'diff', ...(diff.cut ? { cut: true } : {}), ...cut };
}

const whyNot = (reason: string): string => (reason === 'new' ? 'first-sight' : reason === 'gone' ? 'gone' : 'not-read');

const countedOf = (task: Task): { text: string; cut: boolean } | undefined => task.probe?.counted ?? task.probe?.audit?.counted;

/**
 * For each change whose body was read, the word diff of its counted text against the
 * text kept from before (`task.wordDiff`), and the new text kept for the next one. Text
 * is kept from a page's first sight on (a `new` verdict), so that its first change has a
 * diff. A text is stored once, compressed, as a blob under its hash (pages with the same
 * text share it); the record keeps the hash. An unchanged page's record carries its
 * text on. A text kept from before whose blob is gone was `evicted` (store/text-gc.ts).
 *
 * @example
 * const shelf = createTextShelf(store);
 * tasks$.pipe(keepText({ keep: true }, { store, shelf }), commit({ extra: shelf.drain }, store))
 */
export function keepText(options: KeepTextOptions, { store, shelf }: { store: StoreReader; shelf: TextShelf }): MonoTypeOperatorFunction<Task> {
	const now = options.now ?? Date.now;
	const keepVersions = options.versions ?? 0;
	const judge = async (task: Task): Promise<Task> => {
		const { verdict, next, record } = task;
		const old = record?.text;
		const counted = countedOf(task)!;
		const key = options.keep ? textKey(counted.text) : undefined;
		const versioned = key !== undefined && keepVersions > 0 && task.url !== undefined;
		const wanted = [old?.text === undefined ? old?.hash : undefined, key !== undefined && !shelf.written.has(key) ? key : undefined];
		// The page's version log is read beside its texts, in the same round trip's time.
		const [lookup, [log]] = await Promise.all([
			wanted.some((hash) => hash !== undefined) ? store.getTexts(wanted.map((hash) => hash ?? '')) : [undefined, undefined],
			versioned ? store.getVersions([task.url!]) : [undefined],
		]);
		const before = old === undefined ? undefined : (old.text ?? (lookup[0] === undefined ? undefined : unpackText(lookup[0])));
		if (verdict!.reason === 'new') task.wordDiff = { why: 'first-sight' };
		else if (old === undefined) task.wordDiff = { why: options.keep ? 'no-earlier-text' : 'off' };
		else task.wordDiff = before === undefined ? { why: 'evicted' } : diffOf({ text: before, cut: old.cut }, counted);
		if (key === undefined) return task;
		if (versioned) await addToLog(task, key, counted, log, { text: before, blob: lookup[0] });
		const blob = packText(counted.text, now());
		// A blob already stored is written again for its time (eviction keeps the most recently taken), but counted once.
		if (!shelf.written.has(key) && lookup[1] === undefined) shelf.bytes! += blobSize(blob);
		shelf.written.add(key);
		shelf.pending.push({ type: 'putText', key, value: blob });
		const kept: KeptText = counted.cut ? { hash: key, cut: true } : { hash: key };
		next!.text = kept;
		return task;
	};
	/** The page's new text as its newest version: what was newest becomes a reverse delta against it, written with the record (src/domain/versions). */
	const addToLog = async (
		task: Task,
		key: string,
		counted: { text: string; cut: boolean },
		log: VersionLog | undefined,
		kept: { text: string | undefined; blob: TextBlob | undefined },
	): Promise<void> => {
		const { verdict, next } = task;
		const record = task.record ?? undefined;
		let text = kept.text;
		// The log's newest is not the record's text (the page went, or lost its text, in between): read it.
		if (log !== undefined && log.latest !== record?.text?.hash) {
			text = log.latest === key ? counted.text : await store.getTexts([log.latest]).then(([blob]) => blob && unpackText(blob));
		}
		const before =
			record === undefined || (log === undefined && record.text === undefined)
				? undefined
				: { text, lastChecked: record.lastChecked, firstSeen: kept.blob?.at, etag: record.etag, lastModified: record.lastModified, cut: record.text?.cut };
		const product = next!.content?.product;
		const held = options.held?.(task) === true;
		const added = addVersion(
			log,
			before,
			{
				text: counted.text,
				key,
				cut: counted.cut,
				seen: next!.lastChecked,
				reason: verdict!.reason,
				etag: next!.etag,
				lastModified: next!.lastModified,
				product,
				note: verdict!.note,
				held,
			},
			keepVersions,
		);
		shelf.bytes! += blobSize(added) - (log === undefined ? 0 : blobSize(log));
		shelf.pending.push({ type: 'putVersions', key: task.url!, value: added });
	};
	const pass = (task: Task): Task => {
		const { verdict, next, record } = task;
		if (!verdict || !next) return task;
		const old = record?.text;
		if (!verdict.changed) {
			if (old !== undefined && next.text === undefined && next.status >= 200 && next.status < 300) next.text = old;
			return task;
		}
		// A change with no text read (a gone page, a HEAD): its record keeps no text; the blob stays until collected.
		task.wordDiff = { why: whyNot(verdict.reason) };
		return task;
	};
	// Changes with text wait for their blob reads, one at a time (the run's own writes are known by `written`); the rest pass at once.
	// In order, and finished even when the stream fails: a task here was printed already, and the commit after must get it.
	const needsStore = (task: Task): boolean => task.verdict?.changed === true && task.next !== undefined && countedOf(task) !== undefined;
	return inOrder((task: Task) => {
		if (!needsStore(task)) return void pass(task);
		return (shelf.bytes === undefined ? shelf.load() : Promise.resolve(shelf.bytes)).then(async () => void (await judge(task)));
	});
}
