import { unpackText } from '../../store/model/text-blob.js';
import { unpackVersions } from '../../store/model/version-log.js';
import { UsageError } from '../../base/errors/index.js';
import { withGivenStore, type StoreInput } from '../../store/given.js';
import type { StoredVersion, StoreReader } from '../../store/model/types.js';
import { textsOf } from './add.js';

/**
 * One version of a page's counted text, as `revisit log` shows it: the stored version
 * (store/model/text-record.ts) without its delta, with when it was last confirmed always said.
 */
export type PageVersion = Omit<StoredVersion, 'delta' | 'same' | 'lastConfirmed'> & {
	/** The last check that still found it (epoch ms): for the newest, the record's last check. */
	lastConfirmed: number;
};

// What the reads below open a store spec with: no new store where none is, and a store a
// running watch holds read through the watch, as `revisit log` and `diff` do.
const READING = { create: false, viaWatch: true } as const;

/**
 * A page's kept versions, newest first; `[]` when none is kept. `store` is a store
 * directory or Redis URL, opened for reading and closed again, or an opened store.
 *
 * @example
 * const [latest] = await pageVersions('.revisit', 'https://example.org/'); // { n: 3, firstSeen: …, reason: 'new-body', … }
 */
export async function pageVersions(store: StoreInput<StoreReader>, url: string): Promise<PageVersion[]> {
	checkUrl(url);
	return withGivenStore(store, READING, (opened) => versionsIn(opened, url));
}

async function versionsIn(store: StoreReader, url: string): Promise<PageVersion[]> {
	const [[log], [record]] = await Promise.all([store.getVersions([url]), store.getMany([url])]);
	if (log === undefined) return [];
	return unpackVersions(log).map((version, i) => {
		// The newest is confirmed by every check that kept it: its record's last one, while the record still has its text.
		const stillNewest = i === 0 && record !== undefined && record.text?.hash === log.latest;
		return shown(version, stillNewest ? record.lastChecked : (version.lastConfirmed ?? version.firstSeen));
	});
}

function shown(version: StoredVersion, lastConfirmed: number): PageVersion {
	const { n, firstSeen, reason, added, removed, etag, lastModified, product, bytes, cut, note, held } = version;
	return {
		n,
		firstSeen,
		lastConfirmed,
		reason,
		added,
		removed,
		...(etag === undefined ? {} : { etag }),
		...(lastModified === undefined ? {} : { lastModified }),
		...(product === undefined ? {} : { product }),
		bytes,
		...(cut ? { cut } : {}),
		...(note === undefined ? {} : { note }),
		...(held ? { held } : {}),
	};
}

/**
 * The texts of a page's versions `numbers` (of `pageVersions`), made in one pass from the
 * newest back to the oldest asked: `versionText` for each would make every one from the
 * newest again. A number not kept is absent from the map. `store` as for `pageVersions`.
 *
 * @example
 * const texts = await versionTexts(store, 'https://example.org/', [1, 2, 3]); // Map { 1 => '…', 2 => '…', 3 => '…' }
 */
export async function versionTexts(store: StoreInput<StoreReader>, url: string, numbers: readonly number[]): Promise<Map<number, string>> {
	checkUrl(url);
	if (!Array.isArray(numbers))
		throw new UsageError(`\`numbers\` must be an array of version numbers (of pageVersions), got ${typeof numbers}`, { help: false });
	return withGivenStore(store, READING, (opened) => textsIn(opened, url, numbers));
}

async function textsIn(store: StoreReader, url: string, numbers: readonly number[]): Promise<Map<number, string>> {
	const found = new Map<number, string>();
	const [log] = await store.getVersions([url]);
	if (log === undefined || numbers.length === 0) return found;
	const versions = unpackVersions(log);
	const wanted = new Set(numbers);
	const indices = versions.flatMap((version, i) => (wanted.has(version.n) ? [i] : []));
	if (indices.length === 0) return found;
	const [blob] = await store.getTexts([log.latest]);
	if (blob === undefined) return found;
	const texts = textsOf(versions, unpackText(blob), Math.max(...indices));
	for (const i of indices) found.set(versions[i]!.n, texts[i]!);
	return found;
}

/**
 * The text of one version: `versionTexts` for one number.
 *
 * @example
 * const first = await versionText(store, 'https://example.org/', 1);
 */
export async function versionText(store: StoreInput<StoreReader>, url: string, n: number): Promise<string | undefined> {
	return (await versionTexts(store, url, [n])).get(n);
}

/** The URL the reads above take: a UsageError, not a store's own failure, when it is no string. */
function checkUrl(url: unknown): void {
	if (typeof url !== 'string' || url === '')
		throw new UsageError(`\`url\` must be a page's URL as it was swept, got ${url === '' ? 'an empty string' : typeof url}`, { help: false });
}
