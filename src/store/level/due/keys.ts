import type { AbstractLevel, AbstractSublevel } from 'abstract-level';

/**
 * The LevelDB schedule's key layout and stored shapes (see LevelDueQueue), kept apart
 * so that the claims, the listings and the queue read one definition. The layout is the
 * one every schedule since issue 27 was written in: a store written by an older revisit
 * opens as it is.
 */

// Any abstract-level database: a LevelDB directory (classic-level) or memory-level.
export type Db = AbstractLevel<string | Buffer | Uint8Array, string, unknown>;
export type Sub<V> = AbstractSublevel<Db, string | Buffer | Uint8Array, string, V>;

/** A URL's place, as `url` keeps it: origin, due time, rate bin, and not claimed ahead before `n` (absent: any time). */
export interface Place {
	o: string;
	d: number;
	b: number;
	n?: number;
}

/**
 * An origin's entry: when it may next be asked (`r`, also its key in `ready`), its gap,
 * and its URLs. `r` is never later than the origin's true next time: claims are held in
 * memory, so `r` counts a claimed URL as if it were not claimed (a restart after kill -9
 * then finds it due at once), and the claims skip what is claimed.
 */
export interface HostPlace {
	r: number;
	g: number;
	n: number;
	/** When it was last claimed from: written only for an origin with a gap, the only place it is read. */
	c?: number;
	/** The due time of its first `at` key (claimed or not), -1 for none (absent in schedules written before it was kept: then it is read). */
	f?: number;
}

// Checked where written: abstract-level types a mixed batch only loosely.
export type Op = { type: 'put'; sublevel: object; key: string; value: unknown } | { type: 'del'; sublevel: object; key: string };

export const SEP = '\x00';
export const END = '\x01';
/** Digits of a time in a key. */
const DIGITS = 15;

/**
 * A time as keys hold it: whole ms, not before 1970.
 *
 * @example
 * keyTime(12.6) // 13
 */
export const keyTime = (time: number): number => Math.max(0, Math.round(time));

/**
 * A time as a key's fixed-width part, so that string order is time order.
 *
 * @example
 * pad(12) // '000000000000012'
 */
export const pad = (time: number): string => keyTime(time).toString().padStart(DIGITS, '0');

/**
 * A URL's key in `at`: its origin's URLs in due order (URLFrontier's layout).
 *
 * @example
 * atKey('http://a.test', 5, 'http://a.test/x') // 'http://a.test\0000000000000005\0http://a.test/x'
 */
export const atKey = (origin: string, due: number, url: string): string => `${origin}${SEP}${pad(due)}${SEP}${url}`;

/** The due time an `at` key of `origin` holds. */
export const dueOfKey = (origin: string, key: string): number => Number(key.slice(origin.length + 1, origin.length + 1 + DIGITS));

/** The URL an `at` key of `origin` holds. */
export const urlOfKey = (origin: string, key: string): string => key.slice(origin.length + 2 + DIGITS);

/** An origin's key in `ready`: by when it may next be asked. */
export const readyKey = (ready: number, origin: string): string => `${pad(ready)}${SEP}${origin}`;

/** The range of `origin`'s keys in `at` (or in a listing keyed by source). */
export const rangeOf = (prefix: string): { gte: string; lt: string } => ({ gte: `${prefix}${SEP}`, lt: `${prefix}${END}` });

/** A put or a del of one key, as a batch takes it. */
export const put = <V>(sublevel: Sub<V>, key: string, value: V): Op => ({ type: 'put', sublevel, key, value });
export const del = <V>(sublevel: Sub<V>, key: string): Op => ({ type: 'del', sublevel, key });
