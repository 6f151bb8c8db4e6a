import { wordDiff } from '../../domain/content/word-diff.js';
import type { StoreReader } from '../../store/model/types.js';
import { pageVersions, versionTexts, type PageVersion } from '../../domain/versions/index.js';

type Hunks = NonNullable<ReturnType<typeof wordDiff>>['hunks'];

/** Two versions' word diff, or why there is none. */
export type PairDiff =
	| { diff: Hunks; cut?: boolean | undefined; kept?: number | undefined }
	/** `evicted`: a text is no longer kept; `too-different`: too different to diff word by word. */
	| { none: 'evicted' | 'too-different' };

/** Everything a URL's page shows, as plain data (embedded in the page as JSON). */
export interface UrlPageData {
	url: string;
	/** Where it came from (the store's description), and when the page was made (ISO). */
	source: string;
	generatedAt: string;
	/** Its versions, newest first (`revisit log`'s rows). */
	versions: PageVersion[];
	/** Word diffs by pair, `A-B` with A the older version's number. */
	diffs: Record<string, PairDiff>;
	/** The pair shown first: the latest change, or the one asked for. */
	a?: number | undefined;
	b?: number | undefined;
	/** Where the report is, from this page (a relative href). */
	back: string;
	/** Served by a watch: a pair not in `diffs` is asked for with `?u=URL&a=A&b=B`. A file names the command instead. */
	served: boolean;
}

/** What a URL's page holds, and where it points. */
export interface UrlPageScope {
	/** A pair to hold beside the usual ones (a served page's `?a=&b=`). */
	a?: number | undefined;
	b?: number | undefined;
	back: string;
	served: boolean;
	/**
	 * The page as written before (its data), whose diffs are taken again where both
	 * versions are the same ones (same number, first seen at the same time): a version's
	 * text never changes, so neither does a diff of two.
	 */
	earlier?: UrlPageData | undefined;
}

/** A diff of `earlier` for versions a and b, if both are the versions of `now` by those numbers. */
function diffKept(earlier: UrlPageData | undefined, now: ReadonlyMap<number, PageVersion>, a: number, b: number): PairDiff | undefined {
	const diff = earlier?.diffs[`${a}-${b}`];
	if (!diff) return undefined;
	const same = (n: number): boolean => earlier!.versions.some((version) => version.n === n && version.firstSeen === now.get(n)?.firstSeen);
	return same(a) && same(b) ? diff : undefined;
}

/**
 * The pairs a page holds: each change (a version and the one before it), the oldest kept
 * against the latest, and the pair asked for. Each change is there to step through; any
 * other pair is asked for (a watch's page) or named as a command (a file): all pairs
 * would cost the square of the versions' count.
 *
 * @example
 * pagePairs([4, 3, 2, 1]) // [[3, 4], [2, 3], [1, 2], [1, 4]]
 */
export function pagePairs(numbers: readonly number[], asked?: [number, number]): Array<[number, number]> {
	const pairs = new Map<string, [number, number]>();
	const add = (a: number, b: number): void => void pairs.set(`${a}-${b}`, [a, b]);
	for (let i = 0; i + 1 < numbers.length; i++) add(numbers[i + 1]!, numbers[i]!);
	if (numbers.length > 2) add(numbers.at(-1)!, numbers[0]!);
	if (asked && asked[0] !== asked[1] && numbers.includes(asked[0]) && numbers.includes(asked[1])) add(Math.min(...asked), Math.max(...asked));
	return [...pairs.values()];
}

/** The bytes compared when a side was cut at `--keep-text` (the cut note's figure). */
const keptOf = (...sides: PageVersion[]): number | undefined => {
	const cut = sides.filter((side) => side.cut);
	return cut.length === 0 ? undefined : Math.min(...cut.map((side) => side.bytes));
};

/**
 * Reads what a URL's page shows from the store: its versions (pageVersions), their texts
 * and the word diffs of the pairs it holds (pagePairs), made by the same word diff a
 * run's detail keeps (src/domain/content/word-diff.ts). The texts are made once, in one pass, and
 * only for the diffs not taken from the page written before (`scope.earlier`).
 *
 * @example
 * const data = await loadUrlPage(store, 'https://example.org/', '.revisit', { back: '../report.html', served: false });
 */
export async function loadUrlPage(store: StoreReader, url: string, source: string, scope: UrlPageScope, now = Date.now()): Promise<UrlPageData> {
	const versions = await pageVersions(store, url);
	const numbers = versions.map((version) => version.n);
	const asked = scope.a !== undefined && scope.b !== undefined ? ([scope.a, scope.b] as [number, number]) : undefined;
	const pairs = pagePairs(numbers, asked);
	const byNumber = new Map(versions.map((version) => [version.n, version]));
	const diffs: Record<string, PairDiff> = {};
	const fresh = pairs.filter(([a, b]) => {
		const kept = diffKept(scope.earlier, byNumber, a, b);
		if (kept) diffs[`${a}-${b}`] = kept;
		return !kept;
	});
	// The texts of the pairs to diff, made in one pass from the newest (versionTexts), not each from it again.
	const texts = await versionTexts(store, url, fresh.flat());
	for (const [a, b] of fresh) {
		const [before, after] = [texts.get(a), texts.get(b)];
		if (before === undefined || after === undefined) {
			diffs[`${a}-${b}`] = { none: 'evicted' };
			continue;
		}
		const diff = wordDiff(before, after);
		diffs[`${a}-${b}`] = diff ? { diff: diff.hunks, cut: diff.cut || undefined, kept: keptOf(byNumber.get(a)!, byNumber.get(b)!) } : { none: 'too-different' };
	}
	const [first] = pairs;
	const shown = asked && diffs[`${Math.min(...asked)}-${Math.max(...asked)}`] ? [Math.min(...asked), Math.max(...asked)] : first;
	return { url, source, generatedAt: new Date(now).toISOString(), versions, diffs, a: shown?.[0], b: shown?.[1], back: scope.back, served: scope.served };
}
