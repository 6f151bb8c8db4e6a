import { brotliDecompressSync } from 'node:zlib';
import { compressText } from './text-blob.js';
import { RECORD_VERSION, type StoredVersion, type VersionLog } from './types.js';

/**
 * A log's versions as they are compressed: one column a field, newest first, so that
 * like values sit together (bench/VERSIONS.md measured this against a row a version).
 * Numbers stay stable: `n` is the newest's (each older is one less), `t` the newest's
 * first sight and then each version's gap to the one after it, `c` the gap from first
 * sight to last confirmed; `o` a change's note (its text the same, its bytes not), `h` 1
 * where `--when` held the change back. A column with nothing in it is left out.
 */
interface Columns {
	n: number;
	t: number[];
	c?: Array<number | null>;
	r: string[];
	a: number[];
	d: number[];
	b: number[];
	e?: Array<string | null>;
	m?: Array<string | null>;
	p?: Array<StoredVersion['product'] | null>;
	x?: number[];
	D?: Array<StoredVersion['delta'] | null>;
	s?: Array<number | null>;
	o?: Array<string | null>;
	h?: number[];
}

function toColumns(versions: readonly StoredVersion[]): Columns {
	const column = <T>(pick: (version: StoredVersion) => T | undefined): Array<T | null> | undefined => {
		const values = versions.map((version) => pick(version) ?? null);
		return values.some((value) => value !== null) ? values : undefined;
	};
	const columns: Columns = {
		n: versions[0]!.n,
		t: versions.map((version, i) => (i === 0 ? version.firstSeen : versions[i - 1]!.firstSeen - version.firstSeen)),
		r: versions.map((version) => version.reason),
		a: versions.map((version) => version.added),
		d: versions.map((version) => version.removed),
		b: versions.map((version) => version.bytes),
	};
	const optional = {
		c: column((version) => (version.lastConfirmed === undefined ? undefined : version.lastConfirmed - version.firstSeen)),
		e: column((version) => version.etag),
		m: column((version) => version.lastModified),
		p: column((version) => version.product),
		x: versions.some((version) => version.cut) ? versions.map((version) => (version.cut ? 1 : 0)) : undefined,
		D: column((version) => version.delta),
		s: column((version) => version.same),
		o: column((version) => version.note),
		h: versions.some((version) => version.held) ? versions.map((version) => (version.held ? 1 : 0)) : undefined,
	};
	for (const [key, value] of Object.entries(optional)) if (value !== undefined) (columns as unknown as Record<string, unknown>)[key] = value;
	return columns;
}

function fromColumns(columns: Columns): StoredVersion[] {
	let firstSeen = 0;
	return columns.t.map((gap, i) => {
		firstSeen = i === 0 ? gap : firstSeen - gap;
		const version: StoredVersion = { n: columns.n - i, firstSeen, reason: columns.r[i]!, added: columns.a[i]!, removed: columns.d[i]!, bytes: columns.b[i]! };
		const confirmed = columns.c?.[i];
		if (confirmed !== undefined && confirmed !== null) version.lastConfirmed = firstSeen + confirmed;
		if (columns.e?.[i] != null) version.etag = columns.e[i]!;
		if (columns.m?.[i] != null) version.lastModified = columns.m[i]!;
		if (columns.p?.[i] != null) version.product = columns.p[i]!;
		if (columns.x?.[i]) version.cut = true;
		if (columns.D?.[i] != null) version.delta = columns.D[i]!;
		if (columns.s?.[i] != null) version.same = columns.s[i]!;
		if (columns.o?.[i] != null) version.note = columns.o[i]!;
		if (columns.h?.[i]) version.held = true;
		return version;
	});
}

/**
 * A page's versions (newest first, numbered one apart, the newest's text being the blob
 * `latest`) as its log: their columns as JSON, brotli-compressed together, and the head
 * collection reads.
 *
 * @example
 * const log = packVersions([{ n: 1, firstSeen: 0, reason: 'new', added: 0, removed: 0, bytes: 5 }], textKey('Hats 5'));
 */
export function packVersions(versions: readonly StoredVersion[], latest: string): VersionLog {
	const raw = Buffer.from(JSON.stringify(toColumns(versions)), 'utf8');
	return {
		v: RECORD_VERSION,
		z: compressText(raw),
		bytes: raw.length,
		at: versions[0]!.firstSeen,
		latest,
		oldest: versions.at(-1)!.firstSeen,
		count: versions.length,
	};
}

/** The versions of a log, newest first. */
export const unpackVersions = (log: VersionLog): StoredVersion[] => fromColumns(JSON.parse(brotliDecompressSync(log.z).toString('utf8')) as Columns);

/**
 * The newest `keep` of a page's versions (newest first): the oldest go, never the newest.
 * A version whose text is a newer one's (`same`) points forward, so none left loses its text.
 *
 * @example
 * trimVersions(versions, 50).length // at most 50
 */
export const trimVersions = (versions: readonly StoredVersion[], keep: number): StoredVersion[] => versions.slice(0, Math.max(1, keep));
