import type { Options } from 'yargs';
import { sweepDefaults, type SweepOptionsInput } from '../../pipelines/sweep-options.js';
import type { MethodOption } from '../../stages/probe.js';
import { UsageError } from '../../errors/index.js';
import { parseDuration } from '../../util/duration.js';
import { headerFlag, integerFlag, numberFlag, rateFlag } from '../../config/values.js';

/** Parsed sweep flags, as yargs hands them over. */
export interface SweepFlags {
	concurrency: number;
	'per-host': number;
	rate?: number;
	'accept-encoding': string;
	'user-agent': string;
	timeout: number;
	retries: number;
	'max-retry-after': number;
	method: MethodOption;
	audit: number;
	'verify-every'?: number;
	ttl?: number;
	adaptive: boolean;
	'min-interval': number;
	'max-interval': number;
	'max-churn': number;
	'churn-min': number;
	'accept-churn': string[];
	'max-body': number;
	'deny-private': boolean;
	insecure: boolean;
	'local-workers': number;
}

const durationFlag = (flag: string) => (value: unknown): number | undefined => {
	if (value === undefined) return undefined;
	const ms = parseDuration(String(value));
	if (ms === undefined) throw new UsageError(`--${flag} must be a duration such as 30m, 6h or 2d (got ${JSON.stringify(value)})`);
	return ms;
};

/** A duration, or `off` (0): how often a URL's body must be confirmed by a full download. */
const verifyFlag = (value: unknown): number => {
	if (value === 'off' || value === '0' || value === 0) return 0;
	const ms = parseDuration(String(value));
	if (ms === undefined) throw new UsageError(`--verify-every must be a duration such as 30d or 12h, or off (got ${JSON.stringify(value)})`);
	return ms;
};

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1024 ** 2, g: 1e9, gb: 1e9, gib: 1024 ** 3 };

/** A size in bytes, with an optional unit (500000, 512KiB, 10MiB, 1GB). */
export const sizeFlag = (flag: string) => (value: unknown): number => {
	const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(String(value));
	const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'x'];
	const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : 0;
	if (bytes < 1) throw new UsageError(`--${flag} must be a size such as 500000, 512KiB or 10MiB (got ${JSON.stringify(value)})`);
	return bytes;
};

/** The sweep's flags: yargs option definitions, each checked by its coerce. */
export const sweepFlagOptions: Record<keyof SweepFlags, Options> = {
	concurrency: { requiresArg: true, default: sweepDefaults.concurrency, coerce: integerFlag('concurrency', 1), describe: 'Requests in flight in total' },
	'per-host': { requiresArg: true, default: sweepDefaults.perHost, coerce: integerFlag('per-host', 1), describe: 'Requests in flight per origin' },
	rate: { requiresArg: true, coerce: numberFlag('rate'), describe: 'Requests per second per origin [default: unlimited]' },
	'accept-encoding': { type: 'string', default: sweepDefaults.acceptEncoding, coerce: headerFlag('accept-encoding'), describe: 'Accept-Encoding for the whole run (keeps ETags comparable)' },
	'user-agent': { type: 'string', default: sweepDefaults.userAgent, coerce: headerFlag('user-agent'), describe: 'User-Agent header' },
	timeout: { requiresArg: true, default: sweepDefaults.timeoutMs / 1000, coerce: numberFlag('timeout'), describe: 'Seconds allowed for one attempt' },
	retries: { requiresArg: true, default: sweepDefaults.retries, coerce: integerFlag('retries', 0), describe: 'Retries on network errors, 5xx and 429' },
	'max-retry-after': { requiresArg: true, default: sweepDefaults.maxRetryAfterMs / 1000, coerce: integerFlag('max-retry-after', 0), describe: 'Longest Retry-After (seconds) to wait for; longer is an error' },
	method: { choices: ['get', 'head', 'auto'], default: sweepDefaults.method, describe: 'get; head (then GET if it may have changed); auto (HEAD per host where a sample agrees with GET)' },
	audit: { requiresArg: true, default: sweepDefaults.trust.auditRate, coerce: rateFlag('audit'), describe: 'Fraction of conditional probes re-fetched unconditionally to catch lying 304s' },
	'verify-every': {
		requiresArg: true,
		default: '30d',
		coerce: verifyFlag,
		describe: 'No URL goes longer than this without its body confirmed by a full download, whatever its server answers (spread over the runs; off to disable)',
	},
	ttl: { requiresArg: true, coerce: durationFlag('ttl'), describe: 'Skip URLs checked less than this long ago (30m, 6h, 2d)' },
	adaptive: { type: 'boolean', default: false, describe: 'Adapt each URL\'s interval: longer while unchanged, shorter when it changes' },
	'min-interval': { requiresArg: true, default: '1h', coerce: durationFlag('min-interval'), describe: 'Shortest adaptive interval' },
	'max-interval': { requiresArg: true, default: '30d', coerce: durationFlag('max-interval'), describe: 'Longest adaptive interval' },
	'max-churn': { requiresArg: true, default: sweepDefaults.maxChurn, coerce: rateFlag('max-churn'), describe: 'Hold back a host\'s changes when this fraction of its known URLs changed (0 = off); exit 3' },
	'churn-min': { requiresArg: true, default: sweepDefaults.churnMin, coerce: integerFlag('churn-min', 1), describe: 'Known URLs of a host to see before the churn guard decides' },
	'accept-churn': { type: 'string', array: true, default: [], describe: 'Let a blocked host through after a human looked (repeatable; or all)' },
	'max-body': { requiresArg: true, default: '10MiB', coerce: sizeFlag('max-body'), describe: 'Largest body, on the wire or decoded (gzip bombs stop here); larger is BODY_TOO_LARGE' },
	'deny-private': { type: 'boolean', default: false, describe: 'Refuse loopback, link-local and private addresses (checked after DNS), for URL lists you do not control' },
	insecure: { type: 'boolean', default: false, describe: 'Accept any TLS certificate (self-signed, expired, wrong host)' },
	'local-workers': {
		requiresArg: true,
		default: sweepDefaults.localWorkers,
		coerce: integerFlag('local-workers', 0),
		describe: 'Send the requests from N worker threads (HTTP, decoding and hashing on every core; this process keeps the store and the limits); 0 = this thread',
	},
};

/**
 * Sweep options from parsed flags; seconds become milliseconds.
 *
 * @example
 * normaliseSweepOptions(sweepOptionsFrom(argv))
 */
export function sweepOptionsFrom(flags: SweepFlags): SweepOptionsInput {
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
		maxChurn: flags['max-churn'],
		churnMin: flags['churn-min'],
		acceptChurn: flags['accept-churn'].includes('all') ? 'all' : flags['accept-churn'],
		maxBodyBytes: flags['max-body'],
		denyPrivate: flags['deny-private'],
		insecure: flags.insecure,
		localWorkers: flags['local-workers'],
	};
}
