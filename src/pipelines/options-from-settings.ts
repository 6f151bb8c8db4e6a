import type { SweepSettings } from '../config/settings.js';
import { browserDefault, RENDER_DEFAULTS, type RenderSettings } from './render-options.js';
import type { SweepOptionsInput } from './sweep-options.js';

/** The settings of a sweep's run schedule (and its per-origin `rate`), which a watch has none of. */
type SweepOnlySettings = 'rate' | 'ttl' | 'adaptive' | 'budget' | 'host-budget' | 'max-churn' | 'churn-min' | 'accept-churn' | 'local-workers';

/** The settings a sweep and a watch share. */
export type CheckSettings = Omit<SweepSettings, SweepOnlySettings>;

/**
 * Sweep options from checked settings (a command's flags, a pipeline file's stage
 * options); seconds become milliseconds.
 *
 * @example
 * normaliseSweepOptions(sweepOptionsFrom(argv))
 */
export function sweepOptionsFrom(flags: SweepSettings): SweepOptionsInput {
	return {
		...checkOptionsFrom(flags),
		rate: flags.rate,
		ttlMs: flags.ttl,
		adaptive: flags.adaptive,
		budget: flags.budget,
		hostBudget: flags['host-budget'],
		maxChurn: flags['max-churn'],
		churnMin: flags['churn-min'],
		acceptChurn: flags['accept-churn'].includes('all') ? 'all' : flags['accept-churn'],
		localWorkers: flags['local-workers'],
	};
}

/**
 * The options a sweep and a watch share, from their settings: no run schedule, and no
 * per-origin `rate` (a watch's is its `host-rate`).
 *
 * @example
 * normaliseCheckOptions(checkOptionsFrom(argv))
 */
export function checkOptionsFrom(flags: CheckSettings): SweepOptionsInput {
	return {
		concurrency: flags.concurrency,
		perHost: flags['per-host'],
		acceptEncoding: flags['accept-encoding'],
		userAgent: flags['user-agent'],
		timeoutMs: Math.round(flags.timeout * 1000),
		retries: flags.retries,
		maxRetryAfterMs: flags['max-retry-after'] * 1000,
		method: flags.method,
		trust: { auditRate: flags.audit, verifyEveryMs: flags['verify-every'] },
		minIntervalMs: flags['min-interval'],
		maxIntervalMs: flags['max-interval'],
		now: flags.now,
		maxBodyBytes: flags['max-body'],
		denyPrivate: flags['deny-private'],
		insecure: flags.insecure,
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
function renderFrom(flags: CheckSettings): RenderSettings | undefined {
	const timeoutMs = Math.round((flags['render-timeout'] ?? RENDER_DEFAULTS.timeoutMs / 1000) * 1000);
	const concurrency = flags['render-concurrency'] ?? RENDER_DEFAULTS.concurrency;
	const memoryBytes = flags['render-memory'] ?? RENDER_DEFAULTS.memoryBytes;
	const mode = flags.render ?? 'never';
	if (mode === 'never' && flags.browser === undefined && timeoutMs === RENDER_DEFAULTS.timeoutMs && concurrency === RENDER_DEFAULTS.concurrency && memoryBytes === RENDER_DEFAULTS.memoryBytes) return undefined;
	return { mode, browser: flags.browser ?? browserDefault(process.env), timeoutMs, concurrency, memoryBytes };
}
