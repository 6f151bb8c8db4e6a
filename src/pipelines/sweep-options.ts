import { sweepDefaults as defaults } from '../config/defaults.js';
import type { SweepSettings } from '../config/settings.js';
import { timeValue } from '../config/values.js';
import { normaliseTrustOptions, type TrustOptions } from '../hosts/trust-options.js';
import type { MethodOption } from '../stages/probe.js';
import { compileRules, type RuleSpec } from '../content/rules.js';
import { headerMatchProblem } from '../content/url-match.js';
import { UsageError } from '../errors/index.js';
import { compileCondition } from '../condition/compile.js';
import type { HeaderRule } from '../http/headers.js';
import type { ProxySettings } from '../http/proxy.js';
import { checkOptionNames } from './option-names.js';
import { RENDER_MEMORY_CAP } from '../render/index.js';
import { nonNegativeInteger, positiveInteger, positiveNumber } from '../util/checks.js';

/** What callers pass: any subset, with trust knobs one by one. */
export type SweepOptionsInput = Partial<Omit<SweepOptions, 'trust'>> & { trust?: Partial<TrustOptions> | undefined };

/** Every knob of a sweep, with the CLI's defaults. Times are in ms here, seconds on the CLI. */
export interface SweepOptions {
	concurrency: number;
	perHost: number;
	rate?: number | undefined;
	acceptEncoding: string;
	userAgent: string;
	timeoutMs: number;
	retries: number;
	retryDelayMs: number;
	maxRetryAfterMs: number;
	/**
	 * Lines between the reader and the commit at most: the memory bound. By default the
	 * larger of 64 and twice `concurrency`.
	 */
	highWater: number;
	/** `get`, `head` (then GET when HEAD says it may have changed), or `auto` (HEAD where a sample shows it agrees with GET). */
	method: MethodOption;
	/** Per-host trust: audit rate, thresholds, re-test interval. */
	trust: TrustOptions;
	/** Skip URLs checked less than this long ago (ms); also their fixed interval. */
	ttlMs?: number | undefined;
	/** Adaptive per-URL interval within [minIntervalMs, maxIntervalMs]. */
	adaptive: boolean;
	minIntervalMs: number;
	maxIntervalMs: number;
	/** Most URLs checked in the run, and per origin (see schedule/pick.ts); unset: no limit. */
	budget?: number | undefined;
	hostBudget?: number | undefined;
	/** "Now" for the run (epoch ms): its clock starts there and runs on (see `clockFor`). Unset: $REVISIT_NOW, else the system clock. */
	now?: number | undefined;
	/** Churn guard: block a host when this fraction of its known URLs changed; 0 = off. */
	maxChurn: number;
	churnMin: number;
	/** Hosts the churn guard lets through (origins or hostnames), or 'all'. */
	acceptChurn: string[] | 'all';
	/** Never download a body: print the URLs that may have changed, for `revisit fetch`. */
	candidates: boolean;
	/** Largest body (on the wire or decoded) before the URL gets BODY_TOO_LARGE. */
	maxBodyBytes: number;
	/** Refuse loopback, link-local and private addresses, after DNS resolution. */
	denyPrivate: boolean;
	/** Accept any TLS certificate. */
	insecure: boolean;
	/** Content rules, in order (the first that matches a URL wins); see content/rules.ts. */
	rules?: readonly RuleSpec[] | undefined;
	/** Fetch a new or changed page again at once, and learn what differs as noise (`--learn-noise`). */
	learnNoise: boolean;
	/** Keep each body's counted text so that noise a sweep learnt is left out here too (a fetch does). */
	applyNoise?: boolean | undefined;
	/** Keep each exchange as it crossed the wire, for WARC output (`--warc`). */
	capture: boolean;
	/** Send the run's requests from this many worker threads (0: from this one); see transports/threads/threads.ts. */
	localWorkers: number;
	/** Headers added to the requests (`-H`, a pipeline file's `headers`), each for all URLs or those it matches. */
	headers?: readonly HeaderRule[] | undefined;
	/** The proxies to send through (`--proxy`, or the environment's HTTP_PROXY and kin, see http/proxy.ts); none: direct. */
	proxy?: ProxySettings | undefined;
	/** A Netscape cookies.txt whose cookies are sent (`--cookies`). */
	cookies?: string | undefined;
	/** Where the cookies, with those the servers set, are written when the run ends (`--cookie-jar`). */
	cookieJar?: string | undefined;
	/** `obey` each origin's robots.txt (the default), or `ignore` it (a user's own sites). */
	robots: 'obey' | 'ignore';
	/** The crawler's name matched against robots.txt's groups (any name; see robots/agent.ts); by default the User-Agent's, the part before `/`. */
	robotsAgent?: string | undefined;
	/** A Crawl-delay above this (ms) defers the origin's URLs. */
	maxCrawlDelayMs: number;
	/** Counted text kept per changed page for the next diff (`revisit report`), in bytes; 0: none (see pipelines/keep-text.ts). */
	keepTextBytes: number;
	/** The same, in total over the store. */
	keepTextTotalBytes: number;
	/** Versions of its counted text kept per page (`--keep-versions`), within `keepTextTotalBytes`; 0: the newest only (see src/versions). */
	keepVersions: number;
	/** What is kept of an HTML page without a content rule: its `visible` text (default), or its markup (`source`). */
	diffOf: 'visible' | 'source';
	/** Report a change only when this condition holds (`--when`, docs/6-noise.md); one that does not is committed as the baseline with reason `unmet`. */
	when?: string | undefined;
	/** Rendering in Chromium (`--render`, docs/21-rendering.md); absent: never, unless a rule says otherwise. */
	render?: RenderSettings | undefined;
}

/** `--render`, `--browser`, `--render-timeout`, `--render-concurrency`, `--render-memory`. */
export interface RenderSettings {
	/** For URLs whose rule does not say: never, auto (only when the static page cannot answer), always. */
	mode: 'never' | 'auto' | 'always';
	/** The browser's executable: `--browser`, else `$REVISIT_BROWSER`, else Debian's /usr/bin/chromium. */
	browser: string;
	timeoutMs: number;
	concurrency: number;
	/** `--render-memory`: a renderer process past this many bytes is killed (RENDER_TOO_LARGE). */
	memoryBytes: number;
}

/** `--render-timeout`, `--render-concurrency` and `--render-memory` by default. */
export const RENDER_DEFAULTS = { timeoutMs: 15_000, concurrency: 2, memoryBytes: RENDER_MEMORY_CAP } as const;

/** Debian's chromium: what `--render` launches unless told otherwise. */
export const DEFAULT_BROWSER = '/usr/bin/chromium';

/**
 * The browser `--render` launches when `--browser` is not given: $REVISIT_BROWSER, else
 * Debian's chromium.
 *
 * @example
 * browserDefault({ REVISIT_BROWSER: '/opt/chromium/chrome' }) // '/opt/chromium/chrome'
 */
export const browserDefault = (env: NodeJS.ProcessEnv): string => env['REVISIT_BROWSER'] || DEFAULT_BROWSER;

/**
 * Whether a run may render: its `--render` is not never, or one of its rules says auto or always.
 *
 * @example
 * rendersAny({ render: { mode: 'auto', ... } }) // true
 */
export const rendersAny = (options: Pick<SweepOptions, 'render' | 'rules'>): boolean =>
	(options.render !== undefined && options.render.mode !== 'never') || options.rules?.some((rule) => rule.render !== undefined && rule.render !== 'never') === true;

/**
 * The crawler's name robots.txt groups are matched against: `robotsAgent`, else the
 * User-Agent up to its first `/` or space.
 *
 * @example
 * robotsAgentOf({ userAgent: 'revisit/0.1 (+https://x)' }) // 'revisit'
 */
export function robotsAgentOf(options: Pick<SweepOptions, 'userAgent' | 'robotsAgent'>): string {
	return options.robotsAgent ?? (options.userAgent.split(/[/\s]/)[0] || options.userAgent);
}

/**
 * Every knob's default (`config/defaults.ts`), checked here against the options' type;
 * `robots` from $REVISIT_ROBOTS when it is set (see `robotsDefault`).
 */
export const sweepDefaults: SweepOptions = { ...defaults, robots: robotsDefault(process.env), ...nowDefault(process.env) };

/**
 * \`$REVISIT_NOW\` (ISO 8601 or epoch ms) as the \`now\` option, when it is set: "now" for
 * simulations and tests that run the CLI, as \`--now\` says it.
 *
 * @example
 * nowDefault({ REVISIT_NOW: '1700000000000' }) // { now: 1700000000000 }
 */
export function nowDefault(env: NodeJS.ProcessEnv): { now?: number } {
	const value = env.REVISIT_NOW?.trim();
	if (value === undefined || value === '') return {};
	return { now: timeValue('now (or $REVISIT_NOW)')(value)! };
}

/**
 * Whether robots.txt is obeyed when no option says: `$REVISIT_ROBOTS` (`obey` or
 * `ignore`), else `obey`. The one default read from the environment, so that a machine
 * that only ever checks its owner's sites (a staging box, a CI job, this repository's
 * own test suite) can say so once for every command, pipeline file and library call.
 *
 * @example
 * robotsDefault({ REVISIT_ROBOTS: 'ignore' }) // 'ignore'
 */
export function robotsDefault(env: NodeJS.ProcessEnv): 'obey' | 'ignore' {
	const value = env.REVISIT_ROBOTS?.trim().toLowerCase();
	if (value === undefined || value === '') return defaults.robots;
	// Anything else fails normaliseSweepOptions's check, naming the variable.
	return value as 'obey' | 'ignore';
}

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
 * Sweep options from checked settings (a command's flags, a pipeline file's stage
 * options); seconds become milliseconds.
 *
 * @example
 * normaliseSweepOptions(sweepOptionsFrom(argv))
 */
export function sweepOptionsFrom(flags: SweepSettings): SweepOptionsInput {
	return {
		concurrency: flags.concurrency,
		perHost: flags['per-host'],
		rate: flags.rate,
		acceptEncoding: flags['accept-encoding'],
		userAgent: flags['user-agent'],
		timeoutMs: Math.round(flags.timeout * 1000),
		retries: flags.retries,
		maxRetryAfterMs: flags['max-retry-after'] * 1000,
		method: flags.method,
		trust: { auditRate: flags.audit, verifyEveryMs: flags['verify-every'] },
		ttlMs: flags.ttl,
		adaptive: flags.adaptive,
		minIntervalMs: flags['min-interval'],
		maxIntervalMs: flags['max-interval'],
		budget: flags.budget,
		hostBudget: flags['host-budget'],
		now: flags.now,
		maxChurn: flags['max-churn'],
		churnMin: flags['churn-min'],
		acceptChurn: flags['accept-churn'].includes('all') ? 'all' : flags['accept-churn'],
		maxBodyBytes: flags['max-body'],
		denyPrivate: flags['deny-private'],
		insecure: flags.insecure,
		localWorkers: flags['local-workers'],
		robots: flags.robots,
		robotsAgent: flags['robots-agent'],
		maxCrawlDelayMs: flags['max-crawl-delay'],
		keepTextBytes: flags['keep-text'],
		keepTextTotalBytes: flags['keep-text-total'],
		keepVersions: flags['keep-versions'],
		diffOf: flags['diff-of'],
		when: flags.when,
		render: renderFrom(flags),
	};
}

/** The render settings, when any is not its default (rules may render while `--render` is never). */
function renderFrom(flags: SweepSettings): RenderSettings | undefined {
	const timeoutMs = Math.round((flags['render-timeout'] ?? RENDER_DEFAULTS.timeoutMs / 1000) * 1000);
	const concurrency = flags['render-concurrency'] ?? RENDER_DEFAULTS.concurrency;
	const memoryBytes = flags['render-memory'] ?? RENDER_DEFAULTS.memoryBytes;
	const mode = flags.render ?? 'never';
	if (mode === 'never' && flags.browser === undefined && timeoutMs === RENDER_DEFAULTS.timeoutMs && concurrency === RENDER_DEFAULTS.concurrency && memoryBytes === RENDER_DEFAULTS.memoryBytes) return undefined;
	return { mode, browser: flags.browser ?? browserDefault(process.env), timeoutMs, concurrency, memoryBytes };
}
