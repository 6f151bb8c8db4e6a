import { normaliseTrustOptions } from '../net/hosts/trust-options.js';
import { compileRules } from '../domain/content/rules.js';
import { headerMatchProblem } from '../domain/content/url-match.js';
import { OptionError, UsageError } from '../base/errors/index.js';
import { compileCondition } from '../domain/condition/compile.js';
import { checkOptionNames } from './option-names.js';
import { sweepSettings } from '../config/settings.js';
import { envDefaults, sweepDefaults } from './sweep-defaults.js';
import { checkOptionsOf, type CheckOptions, type SweepOptions, type SweepOptionsInput } from './sweep-options.js';
import { DEFAULT_BROWSER, RENDER_DEFAULTS, rendersAny } from './render-options.js';
import { nonNegativeInteger, oneOf, positiveInteger, positiveNumber } from '../base/util/checks.js';

/**
 * Fills defaults and checks every option once, when the pipeline is built. An option it
 * does not take is refused, naming the one meant (`select` is a rule in `rules`). What
 * `input` leaves unset comes from `env` ($REVISIT_ROBOTS, $REVISIT_NOW, $REVISIT_BROWSER:
 * `envDefaults`), read here, for this run, and then from the defaults.
 *
 * @example
 * normaliseSweepOptions({ concurrency: 8 }, process.env) // { ...sweepDefaults, concurrency: 8 }
 */
export function normaliseSweepOptions(input: SweepOptionsInput = {}, env: Record<string, string | undefined> = process.env): SweepOptions {
	checkOptionNames(input);
	const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
	const { render: envRender, ...fromEnv } = envDefaults(env);
	const options: SweepOptions = { ...sweepDefaults, ...fromEnv, ...defined, trust: normaliseTrustOptions(input.trust) } as SweepOptions;
	// The browser is the one the options name, else $REVISIT_BROWSER's, else Debian's; a
	// run whose rules render has one too, with --render's other settings at their defaults.
	const browser = input.render?.browser ?? envRender?.browser ?? DEFAULT_BROWSER;
	if (options.render !== undefined) options.render = { ...options.render, browser };
	else if (rendersAny(options)) options.render = { mode: 'never', ...RENDER_DEFAULTS, browser };
	// More lines in flight than request slots, so a URL waiting for its busy host leaves no
	// slot idle; but not many more. Every line in flight holds objects that GC must copy, and
	// a line that waits through two young-generation collections is promoted: measured on
	// bench/run.js's second sweep at --concurrency 24, 128 lines in flight cost 37% more
	// client CPU per URL than 32, and 256 cost 28% more than 64 (bench/RESULTS.md).
	if (input.highWater === undefined) options.highWater = Math.max(sweepDefaults.highWater, 2 * options.concurrency);
	// Each setting with choices (method, robots, diffOf) takes only those: the same words as its flag and the schema.
	for (const row of Object.values(sweepSettings)) {
		if (!('choices' in row) || row.option.includes('.')) continue;
		oneOf(row.option, row.choices, options[row.option as keyof SweepOptions], 'env' in row ? ` (or $${row.env})` : '');
	}
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
	nonNegativeInteger('maxCrawlDelayMs', options.maxCrawlDelayMs);
	if (options.budget !== undefined) nonNegativeInteger('budget', options.budget);
	if (options.hostBudget !== undefined) positiveInteger('hostBudget', options.hostBudget);
	if (options.now !== undefined) nonNegativeInteger('now', options.now);
	nonNegativeInteger('keepTextBytes', options.keepTextBytes);
	nonNegativeInteger('keepTextTotalBytes', options.keepTextTotalBytes);
	nonNegativeInteger('keepVersions', options.keepVersions);
	if (options.robotsAgent !== undefined && (options.robotsAgent.trim() === '' || /[\x00-\x1f\x7f]/.test(options.robotsAgent)))
		throw new OptionError('robotsAgent', `Expected \`robotsAgent\` to be a crawler's name, got \`${options.robotsAgent}\``);
	// A bad selector, pattern or condition fails here, before anything is opened or sent.
	if (options.rules) compileRules(options.rules);
	for (const [i, header] of (options.headers ?? []).entries()) {
		const problem = header.match === undefined ? undefined : headerMatchProblem(header.match);
		if (problem !== undefined) throw new UsageError(`header ${i + 1} (${header.name}): match ${JSON.stringify(header.match)}: ${problem}`);
	}
	if (options.when !== undefined) compileCondition(options.when, 'when');
	if (!/^[\x21-\x7e][\x20-\x7e]*$/.test(options.acceptEncoding))
		throw new OptionError('acceptEncoding', `Expected \`acceptEncoding\` to be a header value, got \`${options.acceptEncoding}\``);
	if (!/^[\x20-\x7e]+$/.test(options.userAgent))
		throw new OptionError('userAgent', `Expected \`userAgent\` to be a header value, got \`${options.userAgent}\``);
	return options;
}

/**
 * The options a watch shares with a sweep, defaults filled and checked as a sweep's are,
 * with the sweep's run schedule and worker threads left out.
 *
 * @example
 * normaliseCheckOptions({ concurrency: 8 }) // { ...sweepDefaults less ttlMs, budget, …, concurrency: 8 }
 */
export function normaliseCheckOptions(input: SweepOptionsInput = {}, env: Record<string, string | undefined> = process.env): CheckOptions {
	return checkOptionsOf(normaliseSweepOptions(input, env));
}
