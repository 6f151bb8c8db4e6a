import { createHash } from 'node:crypto';
import type { UrlRecord } from '../../store/model/types.js';

/**
 * Where in every verification period a URL's moment falls, as a fraction in [0, 1)
 * taken from its hash: fixed per URL, spread evenly over a list.
 */
export function phaseOf(url: string): number {
	return createHash('sha1').update(url).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The URL's first verification moment after `now`: its phase within the period. A new
 * URL waits until then rather than a whole period, so that a list first seen in one run
 * does not fall due all in one later run.
 *
 * @example
 * firstVerification('https://example.org/', Date.now(), 30 * 86_400_000) // somewhere in the next 30 days
 */
export function firstVerification(url: string, now: number, periodMs: number): number {
	const offset = phaseOf(url) * periodMs;
	return offset + (Math.floor((now - offset) / periodMs) + 1) * periodMs;
}

/**
 * When a URL's body must next be confirmed by a full download: a new URL's first moment,
 * or a period after it last was; undefined for a record from before verification existed
 * (it is due at its phase moment) or with `periodMs` 0.
 *
 * @example
 * verificationBound({ verifiedAt: 0 } as UrlRecord, 30 * 86_400_000) // 2_592_000_000
 */
export function verificationBound(record: Pick<UrlRecord, 'verifiedAt' | 'verifyBy'>, periodMs: number): number | undefined {
	if (periodMs <= 0) return undefined;
	// A new URL's first moment falls within its first period, so it comes first while set.
	if (record.verifyBy !== undefined) return record.verifyBy;
	return record.verifiedAt === undefined ? undefined : record.verifiedAt + periodMs;
}

/**
 * Whether a URL is a whole period past its verification bound: under a budget, a URL due
 * for verification waits for a check the budget chooses anyway (that check goes
 * unconditional), and this is the backstop that gives it one of its own, so that a lying
 * 304 cannot hide a change for ever however small the budget.
 *
 * @example
 * verificationOverdue({ verifiedAt: 0 } as UrlRecord, 30 * 86_400_000, 61 * 86_400_000) // true
 */
export function verificationOverdue(record: Pick<UrlRecord, 'verifiedAt' | 'verifyBy'>, periodMs: number, now: number): boolean {
	const bound = verificationBound(record, periodMs);
	return bound !== undefined && now >= bound + periodMs;
}

/**
 * Whether a URL's body must be confirmed by a full download in this run, so that no
 * change hides behind 304s for longer than `periodMs` whatever the server says. It is
 * due at `verifiedAt + periodMs` (a new URL: at its first moment, `verifyBy`), and is
 * verified at the last run before that, judging by the time between the host's two
 * latest runs (`lookaheadMs`). A record from before verification existed is due at its
 * phase moment. `periodMs` 0 turns verification off.
 *
 * @example
 * verificationDue(record, url, 86_400_000, 30 * 86_400_000, Date.now())
 */
export function verificationDue(record: UrlRecord, url: string, lookaheadMs: number | undefined, periodMs: number, now: number): boolean {
	if (periodMs <= 0) return false;
	const lookahead = Math.min(lookaheadMs ?? 0, periodMs);
	if (record.verifiedAt === undefined && record.verifyBy === undefined) return now + lookahead >= firstVerification(url, now, periodMs);
	if (record.verifiedAt !== undefined && now + lookahead >= record.verifiedAt + periodMs) return true;
	if (record.verifyBy === undefined) return false;
	// Verifying at the last run before the bound makes the steady cycle a period less one
	// run. A new URL's first moment is squeezed into that cycle, taken without lookahead:
	// its phase spread over the whole period would give the run after the download two
	// runs' share, again every cycle.
	const from = record.verifiedAt ?? record.verifyBy - periodMs;
	return now >= from + ((record.verifyBy - from) * (periodMs - lookahead)) / periodMs;
}
