import { brotliDecompressSync } from 'node:zlib';
import { compressText } from './text-blob.js';
import { RECORD_VERSION, type StoredVersion, type VersionLog } from './types.js';

/**
 * A page's versions (newest first, the newest's text being the blob `latest`) as its
 * log: the entries as JSON, brotli-compressed together, and the head collection reads.
 *
 * @example
 * const log = packVersions([{ n: 1, firstSeen: 0, reason: 'new', added: 0, removed: 0, bytes: 5, hash: 'ab12' }], 'ab12…');
 */
export function packVersions(versions: readonly StoredVersion[], latest: string): VersionLog {
	const raw = Buffer.from(JSON.stringify(versions), 'utf8');
	return { v: RECORD_VERSION, z: compressText(raw), bytes: raw.length, at: versions[0]!.firstSeen, latest, oldest: versions.at(-1)!.firstSeen, count: versions.length };
}

/** The versions of a log, newest first. */
export const unpackVersions = (log: VersionLog): StoredVersion[] => JSON.parse(brotliDecompressSync(log.z).toString('utf8')) as StoredVersion[];

/**
 * The newest `keep` of a page's versions (newest first): the oldest go, never the newest.
 * A version whose text is a newer one's (`same`) points forward, so none left loses its text.
 *
 * @example
 * trimVersions(versions, 50).length // at most 50
 */
export const trimVersions = (versions: readonly StoredVersion[], keep: number): StoredVersion[] => versions.slice(0, Math.max(1, keep));
