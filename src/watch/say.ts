import type { IntervalBounds } from '../domain/schedule/due-time.js';
import type { QueueStats } from '../store/model/due.js';
import { shownUrl } from '../base/util/shown-url.js';
import { counted } from '../base/util/counted.js';
import type { Admitted } from './admit.js';
import type { InputBatch } from './inputs.js';
import { roughDuration } from './status.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** How long (schedule clock) the threshold must sit at a bound before the watch says so. */
const AT_BOUND_MS = HOUR_MS;
/** The share of the rate spent at which a threshold at its lowest is not worth a line. */
const SPENT = 0.9;

/** What the watch tells a person as it goes, on stderr: see `createSayings`. */
export interface Sayings {
	/** A batch of input applied to the schedule: at the end of a reading of a source read before, a line on what it found. */
	admitted(batch: InputBatch, result: Admitted): void;
	/** Every input's first reading is in: one line on what the rate means for these URLs. */
	settled(stats: QueueStats): void;
	/** One URL claimed for a check: what the rate actually spends. */
	claimed(): void;
	/** The threshold was solved again (the model's μ, before its correction): a line once it has sat at a bound for an hour of the schedule. */
	updated(modelMu: number, stats: QueueStats, now: number): void;
}

/**
 * The watch's own lines on stderr, each said once, when it happens (--quiet leaves them,
 * as it leaves the address `--listen` took): at the start, what `--rate` means for the
 * URLs given (whether the schedule can spend it, and how new URLs are checked while their
 * rates are learnt); after each reading of an input read again (SIGHUP, a file that
 * changed, a sitemap's next reading), what it added, removed and left as it was, and
 * after a first reading, what it took out of the schedule; and when the threshold has
 * sat at a bound for an hour of the schedule: the rate cannot be spent (every URL at
 * `--min-interval`), or cannot keep up (every URL at `--max-interval`).
 *
 * @example
 * const say = createSayings({ diagnose, checksPerDay: 120_000, bounds: WATCH_INTERVALS });
 * say.settled(await queue.stats()); // '50 URLs, --rate 5000/h: no URL is checked more often than every 1h …'
 */
export function createSayings(options: { diagnose(line: string): void; checksPerDay: number; bounds: IntervalBounds }): Sayings {
	const { diagnose, checksPerDay, bounds } = options;
	const readings = new Map<string, { added: number; removed: number; listed: number }>();
	const readBefore = new Set<string>();
	let addedAtStart = 0;
	let started = false;
	let boundSince: { bound: 'low' | 'high'; at: number; said: boolean; claims: number } | undefined;
	return {
		admitted(batch, result) {
			if (!started) addedAtStart += result.added;
			const key = `${batch.source}\n${batch.generation}`;
			const reading = readings.get(key) ?? { added: 0, removed: 0, listed: 0 };
			reading.added += result.added;
			reading.removed += result.removed.length;
			reading.listed += result.listed;
			readings.set(key, reading);
			if (!batch.last) return;
			readings.delete(key);
			// A sitemap's URL may carry a password.
			const source = shownUrl(batch.source);
			const again = readBefore.has(batch.source);
			readBefore.add(batch.source);
			if (again) diagnose(`${source} read again: ${reading.added} added, ${reading.removed} removed, ${reading.listed - reading.added} unchanged`);
			else if (reading.removed > 0) diagnose(`${source}: ${counted(reading.removed, 'URL')} no longer listed, out of the schedule`);
		},
		settled(stats) {
			if (started) return;
			started = true;
			diagnose(rateLine(stats.size, addedAtStart, checksPerDay, bounds));
		},
		claimed() {
			if (boundSince) boundSince.claims++;
		},
		updated(modelMu, stats, now) {
			const bound = stats.size === 0 ? undefined : modelMu === 0 ? 'low' : (stats.size * DAY_MS) / bounds.maxMs > checksPerDay ? 'high' : undefined;
			if (bound === undefined) return void (boundSince = undefined);
			if (boundSince?.bound !== bound) boundSince = { bound, at: now, said: false, claims: 0 };
			const forMs = now - boundSince.at;
			if (boundSince.said || forMs < AT_BOUND_MS) return;
			boundSince.said = true;
			const spent = (boundSince.claims * DAY_MS) / forMs;
			// At the lowest, the rate may still be spent by other means than the schedule's due times: then there is nothing to say.
			if (bound === 'low' && spent >= SPENT * checksPerDay) return;
			diagnose(boundLine(bound, stats.size, spent, checksPerDay, bounds, forMs));
		},
	};
}

/**
 * What a rate means for a schedule of `urls` URLs, `added` of them new: how much of it
 * the schedule can spend (every URL checked at most every `--min-interval`), or how
 * often each URL comes round; and how new URLs are checked while their rates are learnt.
 *
 * @example
 * rateLine(50, 50, 120_000, { ...WATCH_INTERVALS, minMs: 3_600_000 })
 * // '50 URLs, --rate 5000/h: no URL is checked more often than every 1h (--min-interval), so about 50/h of the rate can be spent now; ' +
 * // 'the 50 new ones are checked first, then again after 1h, 2h, 4h, … while their rates are learnt'
 */
export function rateLine(urls: number, added: number, checksPerDay: number, bounds: IntervalBounds): string {
	const head = `${counted(urls, 'URL')}, --rate ${rateText(checksPerDay)}`;
	if (urls === 0) return `${head}: nothing to check yet`;
	const most = (urls * DAY_MS) / bounds.minMs;
	const least = (urls * DAY_MS) / bounds.maxMs;
	const spending =
		most < checksPerDay
			? `no URL is checked more often than every ${roughDuration(bounds.minMs)} (--min-interval), so about ${roughRate(most, checksPerDay)} of the rate ` +
				`can be spent now`
			: least > checksPerDay
				? `even at --max-interval ${roughDuration(bounds.maxMs)} they take about ${roughRate(least, checksPerDay)}, more than the rate: URLs will fall late`
				: `each URL is checked about every ${roughDuration((urls * DAY_MS) / checksPerDay)} on average, more often those that change more`;
	const learning = `${roughDuration(bounds.learnMs)}, ${roughDuration(2 * bounds.learnMs)}, ${roughDuration(4 * bounds.learnMs)}, …`;
	const which = added === 1 ? (urls === 1 ? 'it is' : 'the new one is') : `${added === urls ? `the ${added}` : `the ${added} of them`} new ones are`;
	const fresh = added === 0 ? '' : `; ${which} checked first, then again after ${learning} while ${added === 1 ? 'its rate is' : 'their rates are'} learnt`;
	return `${head}: ${spending}${fresh}`;
}

/** The threshold has sat at a bound for `forMs`, while `spent` checks a day went out: the rate is more than the URLs can take, or less than they need. */
function boundLine(bound: 'low' | 'high', urls: number, spent: number, checksPerDay: number, bounds: IntervalBounds, forMs: number): string {
	const head = `the threshold has been at its ${bound === 'low' ? 'lowest' : 'highest'} for ${roughDuration(forMs)}`;
	return bound === 'low'
		? `${head}: the ${counted(urls, 'URL')}, each checked at most every ${roughDuration(bounds.minMs)} (--min-interval), ` +
				`took about ${roughRate(spent, checksPerDay)} of --rate ${rateText(checksPerDay)}; the rest is not spent`
		: `${head}: the ${counted(urls, 'URL')}, each checked at least every ${roughDuration(bounds.maxMs)} (--max-interval), ` +
				`need about ${roughRate((urls * DAY_MS) / bounds.maxMs, checksPerDay)}, more than --rate ${rateText(checksPerDay)}: URLs fall late`;
}

const RATE_UNITS = [
	['s', 86_400],
	['min', 1440],
	['h', 24],
	['d', 1],
] as const;

/**
 * A rate of checks as `--rate` takes it: in the first of s, min, h, d where it is a whole
 * number (`5000/h`, not `1.39/s`), else rounded in the first where it is at least 1.
 *
 * @example
 * rateText(120_000) // '5000/h'
 */
export function rateText(checksPerDay: number): string {
	for (const [unit, perDay] of RATE_UNITS) {
		const value = checksPerDay / perDay;
		if (value >= 1 && Math.abs(value - Math.round(value)) < 1e-9 * value) return `${Math.round(value)}/${unit}`;
	}
	return roughRate(checksPerDay);
}

/**
 * A rate rounded to two figures (whole from 100), in the unit `rateText(like)` uses
 * when it is at least 1 there, else in the first of s, min, h, d where it is: `50/h`.
 */
function roughRate(checksPerDay: number, like?: number): string {
	const rough = (value: number, unit: string) => `${value >= 100 ? Math.round(value) : Number(value.toPrecision(2))}/${unit}`;
	const same = like === undefined ? undefined : RATE_UNITS.find(([unit]) => rateText(like).endsWith(`/${unit}`));
	if (same && checksPerDay / same[1] >= 1) return rough(checksPerDay / same[1], same[0]);
	for (const [unit, perDay] of RATE_UNITS) if (checksPerDay / perDay >= 1) return rough(checksPerDay / perDay, unit);
	return rough(checksPerDay, 'd');
}
