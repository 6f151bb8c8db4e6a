import { nearest } from '../base/util/suggest.js';
import { trustDefaults } from '../net/hosts/trust-options.js';
import type { SweepOptions } from './sweep-options.js';
import { OptionError } from '../base/errors/index.js';

/** Every option `normaliseSweepOptions` takes; the type makes a new option list itself here. */
const SWEEP_OPTION_NAMES: Record<keyof SweepOptions, true> = {
	concurrency: true, perHost: true, rate: true, acceptEncoding: true, userAgent: true, timeoutMs: true, retries: true, retryDelayMs: true,
	maxRetryAfterMs: true, highWater: true, method: true, trust: true, ttlMs: true, adaptive: true, minIntervalMs: true, maxIntervalMs: true,
	budget: true, hostBudget: true, now: true, maxChurn: true, churnMin: true, acceptChurn: true, candidates: true, maxBodyBytes: true,
	denyPrivate: true, insecure: true, rules: true, learnNoise: true, applyNoise: true, capture: true, localWorkers: true, headers: true,
	proxy: true, cookies: true, cookieJar: true, robots: true, robotsAgent: true, maxCrawlDelayMs: true, keepTextBytes: true, keepTextTotalBytes: true, keepVersions: true, diffOf: true, when: true, render: true,
};

const RULES_HINT = "content rules go in `rules`, a list of rule objects as a rules file holds them (the CLI's --select main --text is rules: [{ select: ['main'], text: true }])";

/** The CLI's flags whose library option is spelt otherwise: a unit in the name, or another place. */
const FLAG_HINTS: Readonly<Record<string, string>> = {
	select: RULES_HINT,
	text: RULES_HINT,
	ignore: RULES_HINT,
	timeout: 'did you mean `timeoutMs` (milliseconds; --timeout is in seconds)?',
	maxRetryAfter: 'did you mean `maxRetryAfterMs` (milliseconds; --max-retry-after is in seconds)?',
	ttl: 'did you mean `ttlMs` (milliseconds)?',
	minInterval: 'did you mean `minIntervalMs` (milliseconds)?',
	maxInterval: 'did you mean `maxIntervalMs` (milliseconds)?',
	maxBody: 'did you mean `maxBodyBytes`?',
	maxCrawlDelay: 'did you mean `maxCrawlDelayMs` (milliseconds)?',
	keepText: 'did you mean `keepTextBytes`?',
	keepTextTotal: 'did you mean `keepTextTotalBytes`?',
	audit: 'did you mean `trust: { auditRate }`?',
	verifyEvery: 'did you mean `trust: { verifyEveryMs }` (milliseconds)?',
	header: 'did you mean `headers`, a list of { name, value } rules?',
};

/**
 * Refuses an option the sweep does not take, naming the one meant: the CLI's flag names
 * that are spelt otherwise here (`select` is a rule in `rules`, `timeout` is `timeoutMs`),
 * else the nearest option. A misspelt option would otherwise be dropped without a word.
 * Throws OptionError, as the other option checks do.
 *
 * @example
 * checkOptionNames({ select: ['main'] }) // OptionError: Unknown sweep option `select`: content rules go in `rules`, …
 */
export function checkOptionNames(input: object): void {
	for (const name of Object.keys(input)) {
		if (Object.hasOwn(SWEEP_OPTION_NAMES, name)) continue;
		const camel = name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
		const near = nearest(name, Object.keys(SWEEP_OPTION_NAMES));
		const hint = FLAG_HINTS[camel] ?? (near ? `did you mean \`${near}\`?` : `the options are ${Object.keys(SWEEP_OPTION_NAMES).join(', ')}`);
		throw new OptionError(name, `Unknown sweep option \`${name}\`: ${hint}`);
	}
	const trust = (input as { trust?: unknown }).trust;
	if (typeof trust !== 'object' || trust === null) return;
	for (const name of Object.keys(trust)) {
		if (Object.hasOwn(trustDefaults, name)) continue;
		const near = nearest(name, Object.keys(trustDefaults));
		throw new OptionError(`trust.${name}`, `Unknown trust option \`${name}\`: ${near ? `did you mean \`${near}\`?` : `the options are ${Object.keys(trustDefaults).join(', ')}`}`);
	}
}
