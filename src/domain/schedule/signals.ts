import type { SignalTrust } from '../../store/model/types.js';

/**
 * Free signals that a URL has not changed: a sitemap's `<lastmod>` not after its last
 * check, an answer still fresh by its `Cache-Control: max-age` or `Expires`. Each is
 * used to skip checks only on hosts where checks bore it out. See docs/12-scheduling.md
 * ("Trusting lastmod and max-age").
 */

export type Signal = 'lastmod' | 'maxAge';

/** Times in a row a signal must prove right before its host's is trusted. */
export const TRUST_AFTER = 5;
/**
 * Share of the URLs a trusted signal would skip that are checked anyway, a day, to catch a lie sooner than
 * `--verify-every` does: each one costs a check that most likely finds nothing (bench/FRESHNESS.md: at 10% an
 * accurate lastmod cost the changed pages plus 56%). See `signalSample` for runs more frequent than daily.
 */
export const SIGNAL_SAMPLE = 0.01;

const DAY_MS = 86_400_000;

/**
 * The share of the skipped URLs a run checks anyway, given the time between the host's
 * two latest runs: SIGNAL_SAMPLE for runs a day or more apart (or not known yet), and
 * for more frequent runs the share that gives SIGNAL_SAMPLE over a day's runs,
 * 1 - (1 - SIGNAL_SAMPLE)^(interval / 1 day). So the sample costs as many checks a day,
 * and catches a liar as soon in days, at 4 runs a day as at 1 (bench/FRESHNESS.md: at
 * 1% a run, 4 runs a day cost the changed pages plus 15%).
 *
 * @example
 * signalSample(6 * 3_600_000) // about 0.0025
 */
export function signalSample(runIntervalMs: number | undefined): number {
	if (runIntervalMs === undefined || !(runIntervalMs > 0) || runIntervalMs >= DAY_MS) return SIGNAL_SAMPLE;
	return 1 - (1 - SIGNAL_SAMPLE) ** (runIntervalMs / DAY_MS);
}

const NAMES: Record<Signal, string> = { lastmod: 'lastmod', maxAge: 'max-age' };

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

/**
 * What max-age says at `now`: `unchanged` while the last answer is fresh, nothing after.
 *
 * @example
 * maxAgeSays({ freshUntil: 2000 }, 1000) // 'unchanged'
 */
export function maxAgeSays(record: { freshUntil?: number | undefined }, now: number): 'unchanged' | undefined {
	return record.freshUntil !== undefined && now < record.freshUntil ? 'unchanged' : undefined;
}

/** A signal not measured yet: not trusted. */
export function newSignalTrust(): SignalTrust {
	return { right: 0, wrong: 0, streak: 0, trusted: false, reason: 'not measured yet', skipped: 0, sampled: 0 };
}

/**
 * The trust after one check of a URL about which the signal said `says`, and which the
 * check found `changed` or not:
 * - it said unchanged and the page changed: wrong (a lie). Trust is lost at once and the
 *   streak starts again;
 * - lastmod said changed and the page changed, or max-age said unchanged (still fresh)
 *   and the page was unchanged: right, one more in the streak; TRUST_AFTER earn trust;
 * - anything else says nothing about the signal.
 * `now` is kept as `testedAt`.
 *
 * @example
 * scoreSignal(newSignalTrust(), 'lastmod', 'changed', true).streak // 1
 */
export function scoreSignal(trust: SignalTrust | undefined, signal: Signal, says: 'changed' | 'unchanged', changed: boolean, now?: number): SignalTrust {
	const current = trust ?? newSignalTrust();
	const tested = now === undefined ? {} : { testedAt: now };
	const name = NAMES[signal];
	if (says === 'unchanged' && changed) {
		const wrong = current.wrong + 1;
		return {
			...current,
			...tested,
			wrong,
			streak: 0,
			trusted: false,
			reason:
				`${name} said unchanged and a check found a change (${current.right} right, ${wrong} wrong): not trusted until right ${TRUST_AFTER} times ` +
				`in a row`,
		};
	}
	const right = signal === 'lastmod' ? says === 'changed' && changed : says === 'unchanged' && !changed;
	if (!right) return current;
	const streak = current.streak + 1;
	const trusted = streak >= TRUST_AFTER;
	const what = signal === 'lastmod' ? 'announced the changes checks found' : 'was borne out by checks of fresh answers';
	const reason = trusted
		? `${name} ${what} the last ${streak} times (${current.right + 1} right, ${current.wrong} wrong): URLs it says are unchanged are skipped, ` +
			`${SIGNAL_SAMPLE * 100}% a day checked anyway`
		: `${name} right ${streak} time${streak === 1 ? '' : 's'} in a row; trusted at ${TRUST_AFTER}`;
	return { ...current, ...tested, right: current.right + 1, streak, trusted, reason };
}

/**
 * Whether a trusted signal has gone untested (no check scored it) for half of
 * `--verify-every`: then it skips nothing until a check has. A page checked whenever its
 * max-age runs out is verified each time, so verification alone would never test what
 * max-age says while the answer is fresh; this does, at least twice a period.
 *
 * @example
 * untested({ testedAt: 0 }, 20 * 86_400_000, 30 * 86_400_000) // true
 */
export function untested(trust: { testedAt?: number | undefined }, now: number, verifyEveryMs: number): boolean {
	return verifyEveryMs > 0 && now - (trust.testedAt ?? 0) >= verifyEveryMs / 2;
}
