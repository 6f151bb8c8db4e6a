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
	/** Most URLs checked in the run, and per origin (see domain/schedule/pick.ts); unset: no limit. */
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
	/** Content rules, in order (the first that matches a URL wins); see domain/content/rules.ts. */
	rules?: readonly RuleSpec[] | undefined;
	/** Fetch a new or changed page again at once, and learn what differs as noise (`--learn-noise`). */
	learnNoise: boolean;
	/** Keep each body's counted text so that noise a sweep learnt is left out here too (a fetch does). */
	applyNoise?: boolean | undefined;
	/** Keep each exchange as it crossed the wire, for WARC output (`--warc`). */
	capture: boolean;
	/** Send the run's requests from this many worker threads (0: from this one); see net/transports/threads/threads.ts. */
	localWorkers: number;
	/** Headers added to the requests (`-H`, a pipeline file's `headers`), each for all URLs or those it matches. */
	headers?: readonly HeaderRule[] | undefined;
	/** The proxies to send through (`--proxy`, or the environment's HTTP_PROXY and kin, see net/http/proxy.ts); none: direct. */
	proxy?: ProxySettings | undefined;
	/** A Netscape cookies.txt whose cookies are sent (`--cookies`). */
	cookies?: string | undefined;
	/** Where the cookies, with those the servers set, are written when the run ends (`--cookie-jar`). */
	cookieJar?: string | undefined;
	/** `obey` each origin's robots.txt (the default), or `ignore` it (a user's own sites). */
	robots: 'obey' | 'ignore';
	/** The crawler's name matched against robots.txt's groups (any name; see net/robots/agent.ts); by default the User-Agent's, the part before `/`. */
	robotsAgent?: string | undefined;
	/** A Crawl-delay above this (ms) defers the origin's URLs. */
	maxCrawlDelayMs: number;
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
	/** Rendering in Chromium (`--render`, docs/8-rendering.md); absent: never, unless a rule says otherwise. */
	render?: RenderSettings | undefined;
}
