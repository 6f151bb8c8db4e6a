import type { LastmodTrust } from '../store/types.js';

/**
 * A sitemap's `<lastmod>` as a free signal: skip a URL whose lastmod is not after its last
 * check, but only on hosts where lastmod has announced the changes checks found. See
 * docs/16-scheduling.md ("Trusting lastmod").
 */

/** Announced changes in a row (no miss) before a host's lastmod is trusted. */
export const TRUST_AFTER = 5;
/** Share of the URLs a trusted lastmod would skip that are checked anyway, to catch a lie. */
export const LASTMOD_SAMPLE = 0.1;

const DAY_MS = 86_400_000;

/**
 * What a lastmod says about a URL last checked at `lastChecked`: `changed` if it is dated
 * after that check (a date without a time counts as its whole day), `unchanged` if not,
 * undefined when absent or unreadable.
 *
 * @example
 * lastmodSays('2030-01-02T00:00:00Z', Date.parse('2030-01-01')) // 'changed'
 */
export function lastmodSays(lastmod: string | undefined, lastChecked: number): 'changed' | 'unchanged' | undefined {
	if (lastmod === undefined) return undefined;
	const text = lastmod.trim();
	const at = Date.parse(text);
	if (!Number.isFinite(at)) return undefined;
	const end = /^\d{4}-\d\d-\d\d$/.test(text) ? at + DAY_MS : at;
	return end > lastChecked ? 'changed' : 'unchanged';
}

/** A host whose lastmod has not been measured yet: not trusted. */
export function newLastmodTrust(): LastmodTrust {
	return { announced: 0, missed: 0, streak: 0, trusted: false, reason: 'not measured yet', skipped: 0, sampled: 0 };
}

/**
 * The trust after one check of a URL whose lastmod said `says` and whose check found it
 * `changed` or not. A change lastmod announced adds to the streak; TRUST_AFTER in a row
 * earn trust. A change it missed (dated before the check before) is a lie: trust is lost
 * at once and the streak starts again. An unchanged page says nothing about lastmod.
 *
 * @example
 * scoreLastmod(newLastmodTrust(), 'changed', true).streak // 1
 */
export function scoreLastmod(trust: LastmodTrust | undefined, says: 'changed' | 'unchanged', changed: boolean): LastmodTrust {
	const current = trust ?? newLastmodTrust();
	if (!changed) return current;
	if (says === 'unchanged') {
		const missed = current.missed + 1;
		return { ...current, missed, streak: 0, trusted: false, reason: `lastmod missed a change a check found (${current.announced} announced, ${missed} missed): not trusted until ${TRUST_AFTER} in a row are announced` };
	}
	const streak = current.streak + 1;
	const announced = current.announced + 1;
	const trusted = streak >= TRUST_AFTER;
	const reason = trusted
		? `lastmod announced the last ${streak} changes checks found (${announced} announced, ${current.missed} missed): URLs it dates before their last check are skipped, ${LASTMOD_SAMPLE * 100}% checked anyway`
		: `lastmod announced ${streak} change${streak === 1 ? '' : 's'} in a row; trusted at ${TRUST_AFTER}`;
	return { ...current, announced, streak, trusted, reason };
}
