import type { TrustOptions } from '../net/hosts/trust-options.js';
import type { MethodOption } from '../stages/probe.js';
import type { RuleSpec } from '../domain/content/rules.js';
import type { HeaderRule } from '../net/http/headers.js';
import type { ProxySettings } from '../net/http/proxy.js';
import type { RenderSettings } from './render-options.js';

// What each option means. Those a user sets are rows of config/settings.ts (flag, pipeline
// key, unit, default, check); their defaults in the options' units are in sweep-defaults.ts,
// their check in normalise-options.ts, and rendering's settings in render-options.ts.

/** What callers pass: any subset, with trust knobs one by one, and the browser left to the environment. */
export type SweepOptionsInput = Partial<Omit<SweepOptions, 'trust' | 'render'>> & {
	trust?: Partial<TrustOptions> | undefined;
	render?: (Omit<RenderSettings, 'browser'> & { browser?: string | undefined }) | undefined;
};

/** How each URL is asked: the client, its limits and retries, the conditional form and the trust in it, headers, proxies, cookies, rendering. */
export interface RequestOptions {
	concurrency: number;
	perHost: number;
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
	/** Largest body (on the wire or decoded) before the URL gets BODY_TOO_LARGE. */
	maxBodyBytes: number;
	/** Refuse loopback, link-local and private addresses, after DNS resolution. */
	denyPrivate: boolean;
	/** Accept any TLS certificate. */
	insecure: boolean;
	/** Headers added to the requests (`-H`, a pipeline file's `headers`), each for all URLs or those it matches. */
	headers?: readonly HeaderRule[] | undefined;
	/** The proxies to send through (`--proxy`, or the environment's HTTP_PROXY and kin, see net/http/proxy.ts); none: direct. */
	proxy?: ProxySettings | undefined;
	/** A Netscape cookies.txt whose cookies are sent (`--cookies`). */
	cookies?: string | undefined;
	/** Where the cookies, with those the servers set, are written when the run ends (`--cookie-jar`). */
	cookieJar?: string | undefined;
	/** Rendering in Chromium (`--render`, docs/8-rendering.md); absent: never, unless a rule says otherwise. */
	render?: RenderSettings | undefined;
}

/** What an origin is spared: its request rate, its robots.txt and Crawl-delay. */
export interface PolitenessOptions {
	rate?: number | undefined;
	/** `obey` each origin's robots.txt (the default), or `ignore` it (a user's own sites). */
	robots: 'obey' | 'ignore';
	/** The crawler's name matched against robots.txt's groups (any name; see net/robots/agent.ts); by default the User-Agent's, the part before `/`. */
	robotsAgent?: string | undefined;
	/** A Crawl-delay above this (ms) defers the origin's URLs. */
	maxCrawlDelayMs: number;
}

/** What counts in a body, what is learnt of it and kept of it, and when a change is reported. */
export interface ContentOptions {
	/** Content rules, in order (the first that matches a URL wins); see domain/content/rules.ts. */
	rules?: readonly RuleSpec[] | undefined;
	/** Fetch a new or changed page again at once, and learn what differs as noise (`--learn-noise`). */
	learnNoise: boolean;
	/** Keep each body's counted text so that noise a sweep learnt is left out here too (a fetch does). */
	applyNoise?: boolean | undefined;
	/** Counted text kept per changed page for the next diff (`revisit report`), in bytes; 0: none (see pipelines/keep-text.ts). */
	keepTextBytes: number;
	/** The same, in total over the store. */
	keepTextTotalBytes: number;
	/** Versions of its counted text kept per page (`--keep-versions`), within `keepTextTotalBytes`; 0: the newest only (see src/domain/versions). */
	keepVersions: number;
	/** What is kept of an HTML page without a content rule: its `visible` text (default), or its markup (`source`). */
	diffOf: 'visible' | 'source';
	/** Report a change only when this condition holds (`--when`, docs/6-noise.md); one that does not is committed as the baseline with reason `unmet`. */
	when?: string | undefined;
}

/** What a run gives out beside its verdicts: the exchanges for a WARC, or candidates instead of bodies. */
export interface OutputOptions {
	/** Keep each exchange as it crossed the wire, for WARC output (`--warc`). */
	capture: boolean;
	/** Never download a body: print the URLs that may have changed, for `revisit fetch`. */
	candidates: boolean;
}

/**
 * What judging a URL takes, whichever runs it (a sweep, a fetch, a watch): the shared
 * parts, with the run's clock and the bounds of a URL's interval.
 */
export interface CheckOptions extends RequestOptions, PolitenessOptions, ContentOptions, OutputOptions {
	/** "Now" for the run (epoch ms): its clock starts there and runs on (see `clockFor`). Unset: $REVISIT_NOW, else the system clock. */
	now?: number | undefined;
	/** A URL's interval at least and at most (ms): a sweep's adaptive interval, a watch's schedule. */
	minIntervalMs: number;
	maxIntervalMs: number;
}

/**
 * A sweep's own schedule: which URLs one run checks (the TTL, the adaptive interval, the
 * budgets) and what its end releases (the churn guard). A watch has none of it: its
 * schedule in the store decides when each URL is checked again.
 */
export interface RunScheduleOptions {
	/** Skip URLs checked less than this long ago (ms); also their fixed interval. */
	ttlMs?: number | undefined;
	/** Adaptive per-URL interval within [minIntervalMs, maxIntervalMs]. */
	adaptive: boolean;
	/** Most URLs checked in the run, and per origin (see domain/schedule/pick.ts); unset: no limit. */
	budget?: number | undefined;
	hostBudget?: number | undefined;
	/** Churn guard: block a host when this fraction of its known URLs changed; 0 = off. */
	maxChurn: number;
	churnMin: number;
	/** Hosts the churn guard lets through (origins or hostnames), or 'all'. */
	acceptChurn: string[] | 'all';
}

/** Every knob of a sweep, with the CLI's defaults. Times are in ms here, seconds on the CLI. */
export interface SweepOptions extends CheckOptions, RunScheduleOptions {
	/** Send the run's requests from this many worker threads (0: from this one); see net/transports/threads/threads.ts. */
	localWorkers: number;
}

/** What a sweep has that judging a URL does not: the run schedule and the worker threads. */
const SWEEP_ONLY: ReadonlyArray<Exclude<keyof SweepOptions, keyof CheckOptions>> = [
	'ttlMs',
	'adaptive',
	'budget',
	'hostBudget',
	'maxChurn',
	'churnMin',
	'acceptChurn',
	'localWorkers',
];

/**
 * The shared parts of a sweep's options, its run schedule and worker threads left out:
 * what a watch takes of the settings it shares with a sweep.
 *
 * @example
 * checkOptionsOf(normaliseSweepOptions({ concurrency: 8 })) // no ttlMs, budget, maxChurn, …
 */
export function checkOptionsOf(options: SweepOptions): CheckOptions {
	const check: Partial<SweepOptions> = { ...options };
	for (const key of SWEEP_ONLY) delete check[key];
	return check as CheckOptions;
}
