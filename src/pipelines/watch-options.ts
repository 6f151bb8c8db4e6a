import type { ListenAddress } from '../config/values.js';
import type { CheckOptions, PolitenessOptions } from './sweep-options.js';

/**
 * The watch's own options, which a sweep has none of: its rate across every origin, its
 * clock, how long a claim holds, how often it reads sitemaps and says how it does, and
 * where it listens. Times in ms.
 */
export interface WatchOwnOptions {
	/** Checks a day over every origin, in the schedule's clock (`--rate`). */
	checksPerDay: number;
	/** Stop at this time (epoch ms), or after this long in the schedule's clock (`--until`); unset: at a signal. */
	until?: { at: number } | { afterMs: number } | undefined;
	/** How much faster than the wall clock the schedule's clock runs (`--time-scale`). */
	timeScale: number;
	/** How long a claimed URL is held (wall ms, `--lease`) before it returns to the schedule. */
	leaseMs: number;
	/** Schedule-clock ms between two readings of a sitemap (`--sitemap-every`). */
	sitemapEveryMs: number;
	/** Wall ms between two status lines where stderr is not a terminal (`--status-every`); 0: none. */
	statusEveryMs: number;
	/** Where it serves its metrics, health and live report page (`--listen`). */
	listen?: ListenAddress | undefined;
	/** More names it answers to in the Host header (`--listen-host`). */
	listenHosts: string[];
}

/**
 * What the watch's own settings set: its own options, and the politeness part's
 * per-origin `rate`, which a watch takes from `--host-rate` (its `--rate` is `checksPerDay`).
 */
export type WatchSettings = WatchOwnOptions & Pick<PolitenessOptions, 'rate'>;

/**
 * A watch's options: the parts it shares with a sweep (requests, politeness, content,
 * output), and its own. A sweep's run schedule (TTL, budgets, churn guard, worker
 * threads) is not among them: the watch's schedule in the store replaces it.
 */
export interface WatchOptions extends CheckOptions, WatchOwnOptions {}

/** The names of the watch's settings (`config/settings.ts`'s `watchSettings`). */
type WatchSettingName = 'rate' | 'host-rate' | 'until' | 'time-scale' | 'sitemap-every' | 'lease' | 'listen' | 'listen-host' | 'status-every';

/**
 * The watch's settings as options, from each setting's checked value (a flag's, or a
 * pipeline file's `watch` key): the one place their names meet their options.
 *
 * @example
 * watchSettingsFrom((name) => checked[name]) // { checksPerDay: 86400, rate: 2, timeScale: 1, … }
 */
export function watchSettingsFrom(value: (name: WatchSettingName) => unknown): WatchSettings {
	return {
		checksPerDay: value('rate') as number,
		rate: value('host-rate') as number | undefined,
		until: value('until') as WatchSettings['until'],
		timeScale: value('time-scale') as number,
		sitemapEveryMs: value('sitemap-every') as number,
		listen: value('listen') as ListenAddress | undefined,
		listenHosts: value('listen-host') as string[],
		leaseMs: value('lease') as number,
		statusEveryMs: value('status-every') as number,
	};
}
