import { packVersions, trimVersions, unpackVersions } from '../../store/model/version-log.js';
import type { StoredVersion, VersionLog } from '../../store/model/types.js';
import type { Product } from '../../store/model/product.js';
import { applyDelta, reverseDelta } from './delta.js';

/** A page's new text, as the check that saw it found it. */
export interface NewVersion {
	text: string;
	/** Its blob's key (store/model/text-blob.ts `textKey`). */
	key: string;
	cut: boolean;
	/** When it was seen (the check's time). */
	seen: number;
	/** The verdict's reason. */
	reason: string;
	etag?: string | undefined;
	lastModified?: string | undefined;
	product?: Product | undefined;
	/** The verdict's note: its text is the same as before, and where its bytes moved. */
	note?: string | undefined;
	/** The run's `--when` held the change back: it is recorded, marked, and was not reported. */
	held?: boolean | undefined;
}

/** What the page had before: the newest version's text (undefined when its blob is gone), and its record's last check before this one. */
export interface Before {
	text: string | undefined;
	lastChecked: number;
	/** For a page kept from before versions were (a text but no log): what its record says of that text. */
	firstSeen?: number;
	etag?: string | undefined;
	lastModified?: string | undefined;
	cut?: boolean | undefined;
}

/**
 * The page's log with its new text added as the newest version: the one that was newest
 * becomes a reverse delta against it (confirmed last at the record's last check), a
 * version with the same text as the new one keeps no delta of its own (`same`), and past
 * `keep` the oldest go. Every change a check found gets its version, one whose text is
 * the newest's too (its bytes moved; `note` says where), so that `revisit log` and
 * `diff` show each change that was reported.
 *
 * @example
 * const log = addVersion(undefined, undefined, { text: 'Hats 5', key: textKey('Hats 5'), cut: false, seen: Date.now(), reason: 'new' }, 50);
 */
export function addVersion(log: VersionLog | undefined, before: Before | undefined, version: NewVersion, keep: number): VersionLog {
	let versions = log ? unpackVersions(log) : [];
	const n = (versions[0]?.n ?? 0) + 1;
	// The newest's text is gone (evicted): the older ones, made from it, are gone with it.
	if (before?.text === undefined) versions = [];
	else if (versions.length === 0) {
		versions = [
			{
				n: 1,
				firstSeen: before.firstSeen ?? before.lastChecked,
				reason: 'earlier',
				added: 0,
				removed: 0,
				...validators(before),
				bytes: Buffer.byteLength(before.text),
				...(before.cut ? { cut: true } : {}),
			},
		];
	}
	let added = 0;
	let removed = 0;
	const newest = versions[0];
	if (newest !== undefined && before?.text !== undefined) {
		const moved = reverseDelta(version.text, before.text);
		({ added, removed } = moved);
		newest.lastConfirmed = before.lastChecked;
		newest.delta = moved.delta;
	}
	const number = newest === undefined ? n : newest.n + 1;
	// A text the page had before is kept once: the older version points to the new one (the newest did too, where only the bytes moved).
	for (const [i, text] of textsOf(versions, before?.text).entries()) {
		const older = versions[i]!;
		if (text === version.text && older.same === undefined) {
			delete older.delta;
			older.same = number;
		}
	}
	const entry: StoredVersion = {
		n: number,
		firstSeen: version.seen,
		reason: version.reason,
		added,
		removed,
		...validators(version),
		...(version.product ? { product: version.product } : {}),
		bytes: Buffer.byteLength(version.text),
		...(version.cut ? { cut: true } : {}),
		...(version.note === undefined ? {} : { note: version.note }),
		...(version.held ? { held: true } : {}),
	};
	return packVersions(trimVersions([entry, ...versions], keep), version.key);
}

const validators = (from: { etag?: string | undefined; lastModified?: string | undefined }): Pick<StoredVersion, 'etag' | 'lastModified'> => ({
	...(from.etag === undefined ? {} : { etag: from.etag }),
	...(from.lastModified === undefined ? {} : { lastModified: from.lastModified }),
});

/**
 * The texts of a page's versions (newest first), made from the newest's: each older one
 * from the one after it by its delta, or as the newer version it is the same as.
 *
 * @example
 * textsOf(unpackVersions(log), newestText)[1] // the version before the newest
 */
export function textsOf(versions: readonly StoredVersion[], newest: string | undefined, upTo = versions.length - 1): string[] {
	if (newest === undefined || versions.length === 0) return [];
	const texts = [newest];
	const byNumber = new Map([[versions[0]!.n, newest]]);
	for (let i = 1; i <= upTo; i++) {
		const version = versions[i]!;
		const text = version.same === undefined ? applyDelta(texts[i - 1]!, version.delta ?? []) : byNumber.get(version.same)!;
		texts.push(text);
		byNumber.set(version.n, text);
	}
	return texts;
}
