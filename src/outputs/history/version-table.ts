import { offerChange } from '../../domain/product/fields.js';
import type { Product } from '../../store/model/product.js';
import { formatBytes } from '../../base/util/bytes.js';
import { formatTable } from '../../base/util/table.js';
import type { PageVersion } from '../../domain/versions/index.js';
import { utcTime } from './version-spec.js';

/** One version of a page as `revisit log --json` writes it: one object a line, newest first. */
export interface VersionRow {
	url: string;
	n: number;
	/** ISO 8601 (UTC): when this text was first seen, and last seen still the same. */
	firstSeen: string;
	lastConfirmed: string;
	reason: string;
	/** Words added and removed against the version before. */
	added: number;
	removed: number;
	etag?: string;
	lastModified?: string;
	product?: Product;
	/** The text's size in bytes, and whether it was cut at --keep-text. */
	bytes: number;
	cut?: true;
	/** Its text is the version before's: where its bytes moved. */
	note?: string;
	/** `--when` held the change back: recorded, not reported. */
	held?: true;
	latest?: true;
}

/**
 * A version as a JSON row: times as ISO strings, absent fields left out.
 *
 * @example
 * versionRow('https://example.org/', version, true) // { url: 'https://example.org/', n: 3, firstSeen: '2026-12-01T10:00:00.000Z', ..., latest: true }
 */
export function versionRow(url: string, version: PageVersion, latest: boolean): VersionRow {
	const row: VersionRow = {
		url,
		n: version.n,
		firstSeen: new Date(version.firstSeen).toISOString(),
		lastConfirmed: new Date(version.lastConfirmed).toISOString(),
		reason: version.reason,
		added: version.added,
		removed: version.removed,
		bytes: version.bytes,
	};
	if (version.etag !== undefined) row.etag = version.etag;
	if (version.lastModified !== undefined) row.lastModified = version.lastModified;
	if (version.product !== undefined) row.product = version.product;
	if (version.cut) row.cut = true;
	if (version.note !== undefined) row.note = version.note;
	if (version.held) row.held = true;
	if (latest) row.latest = true;
	return row;
}

const validators = (version: PageVersion): string =>
	[version.etag === undefined ? '' : `etag ${version.etag}`, version.lastModified === undefined ? '' : `last-modified ${version.lastModified}`]
		.filter(Boolean)
		.join(', ') || '-';

/**
 * A page's versions (newest first) as an aligned table: number, when first seen and
 * last confirmed, the reason (`, held` where `--when` held the change back), words
 * +added −removed (`-` for the first, `same text` where only the bytes moved), the text's size, the offer (on a
 * product page: its move from the version before) and the validators. `count` shows
 * the newest so many only (the offer's move still read against the version before).
 *
 * @example
 * formatVersionTable(await pageVersions(store, url), 10)
 */
export function formatVersionTable(all: readonly PageVersion[], count = all.length): string {
	const versions = all.slice(0, count);
	const offers = versions.some((version) => version.product !== undefined);
	const header = ['VERSION', 'FIRST SEEN', 'LAST CONFIRMED', 'REASON', 'WORDS', 'TEXT', ...(offers ? ['OFFER'] : []), 'VALIDATORS'];
	const rows = versions.map((version, i) => {
		const before = all[i + 1]?.product;
		return [
			i === 0 ? `${version.n} latest` : String(version.n),
			utcTime(version.firstSeen),
			utcTime(version.lastConfirmed),
			// A change the run's --when held back was recorded, not reported.
			version.held ? `${version.reason}, held` : version.reason,
			// The first version has no version before it to count words against; one whose text is the same moved in its bytes only.
			version.n === 1 ? '-' : version.note !== undefined ? 'same text' : `+${version.added} −${version.removed}`,
			`${formatBytes(version.bytes)}${version.cut ? ' cut' : ''}`,
			...(offers ? [version.product === undefined ? '-' : offerChange(version.product, before)] : []),
			validators(version),
		];
	});
	return formatTable(header, rows);
}
