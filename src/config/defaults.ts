import { trustDefaults } from '../net/hosts/trust-options.js';
import { VERSION } from '../base/util/version.js';

/**
 * Every default of a run, as plain data: the one place the CLI's flags, the pipeline
 * schema and the library's `normaliseSweepOptions` read them from. Times are in ms here;
 * the CLI shows seconds where its flags take seconds.
 *
 * @example
 * builtInSweepDefaults.concurrency // 24
 */
export const builtInSweepDefaults = {
	concurrency: 24,
	perHost: 4,
	acceptEncoding: 'gzip',
	userAgent: `revisit/${VERSION} (+https://github.com/revisit-crawler/revisit)`,
	timeoutMs: 15_000,
	retries: 2,
	retryDelayMs: 1000,
	maxRetryAfterMs: 60_000,
	highWater: 64,
	method: 'get' as 'get' | 'head' | 'auto',
	trust: trustDefaults,
	adaptive: false,
	minIntervalMs: 3_600_000,
	maxIntervalMs: 30 * 86_400_000,
	maxChurn: 0.9,
	churnMin: 20,
	acceptChurn: [] as string[] | 'all',
	candidates: false,
	maxBodyBytes: 10 * 1024 * 1024,
	denyPrivate: false,
	insecure: false,
	localWorkers: 0,
	capture: false,
	learnNoise: false,
	/** Obey each origin's robots.txt (RFC 9309); `ignore` for a user's own sites. */
	robots: 'obey' as 'obey' | 'ignore',
	/** A Crawl-delay above this defers the origin's URLs. */
	maxCrawlDelayMs: 30_000,
	/** Counted text kept per page for the next diff (`revisit report`); 0: none. Visible text of a typical page is some 6 KB (bench/text-store.js). */
	keepTextBytes: 32 * 1024,
	/** And in total, over the whole store, compressed: 100,000 typical pages take some 233 MiB (bench/REPORT.md). */
	keepTextTotalBytes: 256 * 1024 * 1024,
	/** Versions of its counted text kept per page, the newest whole, the older as reverse deltas (bench/VERSIONS.md); 0: the newest only, with no log. */
	keepVersions: 50,
	/** An HTML page without a content rule is kept (and diffed) as its visible text, not its markup. */
	diffOf: 'visible' as 'visible' | 'source',
};

/** The fetch phase's limits (`revisit fetch`, a crawl's second phase); the sweep's other options apply as they are. */
export const fetchDefaults = { concurrency: 6, perHost: 2, highWater: 64 } as const;

/**
 * Defaults as a user writes them, where a flag and a pipeline file take a duration or a
 * size rather than a number: what `--help` and the schema show.
 */
export const writtenDefaults = {
	minInterval: '1h',
	maxInterval: '30d',
	verifyEvery: '30d',
	maxBody: '10MiB',
	maxCrawlDelay: '30s',
	keepText: '32KiB',
	keepTextTotal: '256MiB',
} as const;
