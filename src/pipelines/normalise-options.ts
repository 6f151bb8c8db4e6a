import { normaliseTrustOptions } from '../net/hosts/trust-options.js';
import { compileRules } from '../domain/content/rules.js';
import { headerMatchProblem } from '../domain/content/url-match.js';
import { UsageError } from '../base/errors/index.js';
import { compileCondition } from '../domain/condition/compile.js';
import { checkOptionNames } from './option-names.js';
import { sweepDefaults } from './sweep-defaults.js';
import { checkOptionsOf, type CheckOptions, type SweepOptions, type SweepOptionsInput } from './sweep-options.js';
import { nonNegativeInteger, positiveInteger, positiveNumber } from '../base/util/checks.js';

/**
 * Fills defaults and checks every option once, when the pipeline is built. An option it
 * does not take is refused, naming the one meant (`select` is a rule in `rules`).
 *
 * @example
 * normaliseSweepOptions({ concurrency: 8 }) // { ...sweepDefaults, concurrency: 8 }
 */
export function normaliseSweepOptions(input: SweepOptionsInput = {}): SweepOptions {
	checkOptionNames(input);
	const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
	const options: SweepOptions = { ...sweepDefaults, ...defined, trust: normaliseTrustOptions(input.trust) };
	// More lines in flight than request slots, so a URL waiting for its busy host leaves no
	// slot idle; but not many more. Every line in flight holds objects that GC must copy, and
	// a line that waits through two young-generation collections is promoted: measured on
	// bench/run.js's second sweep at --concurrency 24, 128 lines in flight cost 37% more
	// client CPU per URL than 32, and 256 cost 28% more than 64 (bench/RESULTS.md).
	if (input.highWater === undefined) options.highWater = Math.max(sweepDefaults.highWater, 2 * options.concurrency);
	if (!['get', 'head', 'auto'].includes(options.method)) throw new TypeError(`Expected \`method\` to be get, head or auto, got \`${options.method}\``);
	positiveInteger('concurrency', options.concurrency);
	positiveInteger('perHost', options.perHost);
	if (options.rate !== undefined) positiveNumber('rate', options.rate);
	positiveInteger('timeoutMs', options.timeoutMs);
	nonNegativeInteger('retries', options.retries);
	nonNegativeInteger('retryDelayMs', options.retryDelayMs);
	nonNegativeInteger('maxRetryAfterMs', options.maxRetryAfterMs);
	positiveInteger('highWater', options.highWater);
	positiveInteger('maxBodyBytes', options.maxBodyBytes);
	nonNegativeInteger('localWorkers', options.localWorkers);
	if (options.robots !== 'obey' && options.robots !== 'ignore') throw new TypeError(`Expected \`robots\` (or $REVISIT_ROBOTS) to be obey or ignore, got \`${String(options.robots)}\``);
	nonNegativeInteger('maxCrawlDelayMs', options.maxCrawlDelayMs);
	if (options.budget !== undefined) nonNegativeInteger('budget', options.budget);
	if (options.hostBudget !== undefined) positiveInteger('hostBudget', options.hostBudget);
	if (options.now !== undefined) nonNegativeInteger('now', options.now);
	nonNegativeInteger('keepTextBytes', options.keepTextBytes);
	nonNegativeInteger('keepTextTotalBytes', options.keepTextTotalBytes);
	nonNegativeInteger('keepVersions', options.keepVersions);
	if (options.diffOf !== 'visible' && options.diffOf !== 'source') throw new TypeError(`Expected \`diffOf\` to be visible or source, got \`${String(options.diffOf)}\``);
	if (options.robotsAgent !== undefined && (options.robotsAgent.trim() === '' || /[\x00-\x1f\x7f]/.test(options.robotsAgent))) throw new TypeError(`Expected \`robotsAgent\` to be a crawler's name, got \`${options.robotsAgent}\``);
	// A bad selector, pattern or condition fails here, before anything is opened or sent.
	if (options.rules) compileRules(options.rules);
	for (const [i, header] of (options.headers ?? []).entries()) {
		const problem = header.match === undefined ? undefined : headerMatchProblem(header.match);
		if (problem !== undefined) throw new UsageError(`header ${i + 1} (${header.name}): match ${JSON.stringify(header.match)}: ${problem}`);
	}
	if (options.when !== undefined) compileCondition(options.when, 'when');
	if (!/^[\x21-\x7e][\x20-\x7e]*$/.test(options.acceptEncoding)) throw new TypeError(`Expected \`acceptEncoding\` to be a header value, got \`${options.acceptEncoding}\``);
	if (!/^[\x20-\x7e]+$/.test(options.userAgent)) throw new TypeError(`Expected \`userAgent\` to be a header value, got \`${options.userAgent}\``);
	return options;
}

/**
 * The options a watch shares with a sweep, defaults filled and checked as a sweep's are,
 * with the sweep's run schedule and worker threads left out.
 *
 * @example
 * normaliseCheckOptions({ concurrency: 8 }) // { ...sweepDefaults less ttlMs, budget, …, concurrency: 8 }
 */
export function normaliseCheckOptions(input: SweepOptionsInput = {}): CheckOptions {
	return checkOptionsOf(normaliseSweepOptions(input));
}
