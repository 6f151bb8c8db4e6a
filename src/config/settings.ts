import { builtInSweepDefaults, fetchDefaults, writtenDefaults } from './defaults.js';
import { parseHeaderLine, type HeaderRule } from '../net/http/headers.js';
import { checkProxyUrl } from '../net/http/proxy.js';
import { durationOrOffValue, durationValue, headerValue, timeValue, integerValue, numberValue, robotsAgentValue, rateValue, robotsValue, diffOfValue, conditionValue, renderValue, secondsValue, selectorsValue, sizeOrOffValue, countOrOffValue, sizeValue, verifyValue, checksRateValue, untilValue, positiveSecondsValue, listenValue, listenHostsValue } from './values.js';

/** One setting that a flag and a pipeline file's stage option both take: its default as written, and its check. */
export interface Setting {
	default?: unknown;
	parse?(value: unknown): unknown;
}

/** A sweep's settings once checked, by their flag names: what `sweepOptionsFrom` turns into options. */
export interface SweepSettings {
	concurrency: number;
	'per-host': number;
	rate?: number;
	'accept-encoding': string;
	'user-agent': string;
	timeout: number;
	retries: number;
	'max-retry-after': number;
	method: 'get' | 'head' | 'auto';
	audit: number;
	'verify-every'?: number;
	ttl?: number;
	adaptive: boolean;
	'min-interval': number;
	'max-interval': number;
	/** Most URLs checked in the run (the ones a check is worth most on), and per origin. */
	budget?: number;
	'host-budget'?: number;
	/** "Now" for scheduling, `due` and the times written to records (epoch ms); unset: $REVISIT_NOW, else the clock. */
	now?: number;
	'max-churn': number;
	'churn-min': number;
	'accept-churn': string[];
	'max-body': number;
	'deny-private': boolean;
	insecure: boolean;
	'local-workers': number;
	/** Unset: $REVISIT_ROBOTS, else obey (see `robotsDefault`). */
	robots?: 'obey' | 'ignore';
	'robots-agent'?: string;
	/** In ms, as written in seconds or as a duration. */
	'max-crawl-delay'?: number;
	/** Bytes; 0 when off. */
	'keep-text'?: number;
	'keep-text-total'?: number;
	/** Versions of its text kept per page; 0 when off. */
	'keep-versions'?: number;
	'diff-of': 'visible' | 'source';
	/** A condition a change must meet to be reported (`--when`), as written. */
	when?: string;
	render: 'never' | 'auto' | 'always';
	/** Unset: $REVISIT_BROWSER, else Debian's /usr/bin/chromium. */
	browser?: string;
	/** Seconds. */
	'render-timeout': number;
	'render-concurrency': number;
	'render-memory': number;
}

/**
 * The sweep's settings: defaults in the units a user writes (seconds, durations, sizes)
 * and the checks that turn what was written into values. The CLI's flag table adds
 * descriptions to these; a pipeline file's stage options are the same names in camelCase.
 *
 * @example
 * sweepSettings.timeout.parse('2.5') // 2.5 (seconds)
 */
export const sweepSettings: Record<keyof SweepSettings, Setting> = {
	concurrency: { default: builtInSweepDefaults.concurrency, parse: integerValue('concurrency', 1) },
	'per-host': { default: builtInSweepDefaults.perHost, parse: integerValue('per-host', 1) },
	rate: { parse: numberValue('rate') },
	'accept-encoding': { default: builtInSweepDefaults.acceptEncoding, parse: headerValue('accept-encoding') },
	'user-agent': { default: builtInSweepDefaults.userAgent, parse: headerValue('user-agent') },
	timeout: { default: builtInSweepDefaults.timeoutMs / 1000, parse: numberValue('timeout') },
	retries: { default: builtInSweepDefaults.retries, parse: integerValue('retries', 0) },
	'max-retry-after': { default: builtInSweepDefaults.maxRetryAfterMs / 1000, parse: integerValue('max-retry-after', 0) },
	method: { default: builtInSweepDefaults.method },
	audit: { default: builtInSweepDefaults.trust.auditRate, parse: rateValue('audit') },
	'verify-every': { default: writtenDefaults.verifyEvery, parse: verifyValue },
	ttl: { parse: durationValue('ttl') },
	adaptive: { default: builtInSweepDefaults.adaptive },
	'min-interval': { default: writtenDefaults.minInterval, parse: durationValue('min-interval') },
	'max-interval': { default: writtenDefaults.maxInterval, parse: durationValue('max-interval') },
	budget: { parse: integerValue('budget', 0) },
	'host-budget': { parse: integerValue('host-budget', 1) },
	now: { parse: timeValue('now') },
	'max-churn': { default: builtInSweepDefaults.maxChurn, parse: rateValue('max-churn') },
	'churn-min': { default: builtInSweepDefaults.churnMin, parse: integerValue('churn-min', 1) },
	'accept-churn': { default: [] },
	'max-body': { default: writtenDefaults.maxBody, parse: sizeValue('max-body') },
	'deny-private': { default: builtInSweepDefaults.denyPrivate },
	insecure: { default: builtInSweepDefaults.insecure },
	'local-workers': { default: builtInSweepDefaults.localWorkers, parse: integerValue('local-workers', 0) },
	// No default here: unset, it is $REVISIT_ROBOTS or obey (pipelines/sweep-defaults.ts).
	robots: { parse: robotsValue },
	'robots-agent': { parse: robotsAgentValue('robots-agent') },
	'max-crawl-delay': { default: writtenDefaults.maxCrawlDelay, parse: secondsValue('max-crawl-delay') },
	'keep-text': { default: writtenDefaults.keepText, parse: sizeOrOffValue('keep-text') },
	'keep-text-total': { default: writtenDefaults.keepTextTotal, parse: sizeOrOffValue('keep-text-total') },
	'keep-versions': { default: builtInSweepDefaults.keepVersions, parse: countOrOffValue('keep-versions') },
	'diff-of': { default: builtInSweepDefaults.diffOf, parse: diffOfValue },
	when: { parse: conditionValue },
	render: { default: 'never', parse: renderValue },
	browser: {},
	'render-timeout': { default: 15, parse: numberValue('render-timeout') },
	'render-concurrency': { default: 2, parse: integerValue('render-concurrency', 1) },
	'render-memory': { default: '1GiB', parse: sizeValue('render-memory') },
};

/**
 * A watch's own settings (`revisit watch`, and a watch-mode pipeline's `watch`): its rate
 * of checks over every origin, each origin's request rate, when it stops, its clock, how
 * often sitemaps are read again, and where it serves its metrics (and by which names).
 *
 * @example
 * watchSettings.rate.parse!('5000/h') // 120000 checks a day
 */
export const watchSettings: Record<'rate' | 'host-rate' | 'until' | 'time-scale' | 'sitemap-every' | 'lease' | 'listen' | 'listen-host' | 'status-every', Setting> = {
	rate: { default: '1/s', parse: checksRateValue('rate') },
	'host-rate': { parse: numberValue('host-rate') },
	until: { parse: untilValue('until') },
	'time-scale': { default: 1, parse: numberValue('time-scale') },
	'sitemap-every': { default: '1d', parse: durationValue('sitemap-every') },
	lease: { default: '10m', parse: positiveSecondsValue('lease') },
	listen: { parse: listenValue('listen') },
	'listen-host': { default: [], parse: listenHostsValue('listen-host') },
	'status-every': { default: '15m', parse: durationOrOffValue('status-every') },
};

/** The fetch phase's own limits, for a crawl (`crawl`, `sweep --fetch`, a pipeline's fetch stage). */
export const crawlSettings: Record<'fetch-concurrency' | 'fetch-per-host', Setting> = {
	'fetch-concurrency': { default: fetchDefaults.concurrency, parse: integerValue('fetch-concurrency', 1) },
	'fetch-per-host': { default: fetchDefaults.perHost, parse: integerValue('fetch-per-host', 1) },
};

/**
 * Checks `-H` / `--header` values (one or repeated), in curl's form `Name: value`.
 *
 * @example
 * headersValue(['Accept-Language: fr']) // [{ name: 'Accept-Language', value: 'fr' }]
 */
export const headersValue = (value: unknown): HeaderRule[] => {
	const lines = value === undefined ? [] : Array.isArray(value) ? value : [value];
	return lines.map((line) => parseHeaderLine(String(line), '--header'));
};

/** `--proxy URL`, checked; false for `--no-proxy`. */
export const proxyValue = (value: unknown): string | false | undefined => {
	if (value === undefined || value === false) return value;
	const last = Array.isArray(value) ? value[value.length - 1] : value;
	if (last === false || last === 'false') return false;
	return checkProxyUrl(String(last), '--proxy');
};

/** What a run sends besides its own headers, and through where: headers, cookies, proxies. */
export const accessSettings: Record<'header' | 'cookies' | 'cookie-jar' | 'proxy', Setting> = {
	header: { parse: headersValue },
	cookies: {},
	'cookie-jar': {},
	proxy: { parse: proxyValue },
};

/**
 * The content-rule flags that take CSS selectors (a rule file's and a pipeline's rules
 * check the same fields through the schema's `selector` format): each selector checked
 * before anything is fetched.
 *
 * @example
 * ruleSettings.exclude.parse!(['.ts']) // ['.ts']
 */
export const ruleSettings: Record<'select' | 'exclude' | 'price' | 'availability', Setting> = {
	select: { default: [], parse: selectorsValue('select') },
	exclude: { default: [], parse: selectorsValue('exclude') },
	price: { default: [], parse: selectorsValue('price') },
	availability: { default: [], parse: selectorsValue('availability') },
};
