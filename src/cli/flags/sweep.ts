import type { Options } from 'yargs';
import { sweepSettings, type SweepSettings } from '../../config/settings.js';
import { flagOf } from './setting.js';

/** Parsed sweep flags, as yargs hands them over: the sweep's settings, checked. */
export type SweepFlags = SweepSettings;

/** The sweep's flags: yargs option definitions, each with its setting's default and check (`config/settings.ts`). */
export const sweepFlagOptions: Record<keyof SweepFlags, Options> = {
	concurrency: { ...flagOf(sweepSettings.concurrency), requiresArg: true, describe: 'Requests in flight in total'},
	'per-host': { ...flagOf(sweepSettings['per-host']), requiresArg: true, describe: 'Requests in flight per origin'},
	rate: { ...flagOf(sweepSettings.rate), requiresArg: true, describe: 'Requests per second per origin [default: unlimited]'},
	'accept-encoding': { ...flagOf(sweepSettings['accept-encoding']), type: 'string', describe: 'Accept-Encoding for the whole run (keeps ETags comparable)'},
	'user-agent': { ...flagOf(sweepSettings['user-agent']), type: 'string', describe: 'User-Agent header'},
	timeout: { ...flagOf(sweepSettings.timeout), requiresArg: true, describe: 'Seconds allowed for one attempt'},
	retries: { ...flagOf(sweepSettings.retries), requiresArg: true, describe: 'Retries on network errors, 5xx and 429'},
	'max-retry-after': { ...flagOf(sweepSettings['max-retry-after']), requiresArg: true, describe: 'Longest Retry-After (seconds) to wait for; longer is an error'},
	method: { ...flagOf(sweepSettings.method), choices: ['get', 'head', 'auto'], describe: 'get; head (then GET if it may have changed); auto (HEAD per host where a sample agrees with GET)'},
	audit: { ...flagOf(sweepSettings.audit), requiresArg: true, describe: 'Fraction of conditional probes re-fetched unconditionally to catch lying 304s'},
	'verify-every': {
		...flagOf(sweepSettings['verify-every']),
		requiresArg: true,
		describe: 'No URL goes longer than this without its body confirmed by a full download, whatever its server answers (spread over the runs; off to disable)',
	},
	ttl: { ...flagOf(sweepSettings.ttl), requiresArg: true, describe: 'Skip URLs checked less than this long ago (30m, 6h, 2d)'},
	adaptive: { ...flagOf(sweepSettings.adaptive), type: 'boolean', describe: 'Check each URL again when it has even odds of having changed (ln 2 / its estimated change rate), within --min-interval and --max-interval'},
	'min-interval': { ...flagOf(sweepSettings['min-interval']), requiresArg: true, describe: 'Shortest adaptive interval'},
	'max-interval': { ...flagOf(sweepSettings['max-interval']), requiresArg: true, describe: 'Longest adaptive interval'},
	budget: { ...flagOf(sweepSettings.budget), requiresArg: true, describe: 'Check at most N URLs in this run: new ones first, then those --verify-every has made due, then those a trusted sitemap lastmod says changed, then those a check is worth most on (estimated change rate and time since the last check); the rest are left for later [default: all due]'},
	'host-budget': { ...flagOf(sweepSettings['host-budget']), requiresArg: true, describe: 'Check at most N URLs per origin in this run (politeness), picked as for --budget'},
	now: { ...flagOf(sweepSettings.now), requiresArg: true, defaultDescription: 'the clock, or $REVISIT_NOW', describe: 'Take this time as now (ISO 8601 or epoch ms) for due times, the budget and the times stored: for simulations, tests and back-fills'},
	'max-churn': { ...flagOf(sweepSettings['max-churn']), requiresArg: true, describe: 'Hold back a host\'s changes when this fraction of its known URLs changed (0 = off); exit 3'},
	'churn-min': { ...flagOf(sweepSettings['churn-min']), requiresArg: true, describe: 'Known URLs of a host to see before the churn guard decides'},
	'accept-churn': { ...flagOf(sweepSettings['accept-churn']), type: 'string', array: true, describe: 'Let a blocked host through after a human looked (repeatable; or all)'},
	'max-body': { ...flagOf(sweepSettings['max-body']), requiresArg: true, describe: 'Largest body, on the wire or decoded (gzip bombs stop here); larger is BODY_TOO_LARGE'},
	'deny-private': { ...flagOf(sweepSettings['deny-private']), type: 'boolean', describe: 'Refuse loopback, link-local and private addresses (checked after DNS), for URL lists you do not control'},
	insecure: { ...flagOf(sweepSettings.insecure), type: 'boolean', describe: 'Accept any TLS certificate (self-signed, expired, wrong host)'},
	'local-workers': {
		...flagOf(sweepSettings['local-workers']),
		requiresArg: true,
		describe: 'Send the requests from N worker threads (HTTP, decoding and hashing on every core; this process keeps the store and the limits); 0 = this thread',
	},
	robots: { ...flagOf(sweepSettings.robots), choices: ['obey', 'ignore'], defaultDescription: 'obey, or $REVISIT_ROBOTS', describe: 'Obey each origin\'s robots.txt (RFC 9309), or ignore it for your own sites'},
	'robots-agent': { ...flagOf(sweepSettings['robots-agent']), type: 'string', requiresArg: true, describe: 'Product token matched against robots.txt [default: the --user-agent up to its /]'},
	'max-crawl-delay': { ...flagOf(sweepSettings['max-crawl-delay']), requiresArg: true, describe: 'Longest robots.txt Crawl-delay to honour (seconds, or 30s, 2m); an origin asking more is deferred'},
	'keep-text': { ...flagOf(sweepSettings['keep-text']), requiresArg: true, describe: "Keep up to this much of a changed page's counted text, so that its next change shows as a word diff in revisit report (off: keep none)"},
	'keep-text-total': { ...flagOf(sweepSettings['keep-text-total']), requiresArg: true, describe: 'Keep at most this much counted text in the store in all (off: keep none)'},
	'diff-of': { ...flagOf(sweepSettings['diff-of']), choices: ['visible', 'source'], describe: 'What revisit report diffs of an HTML page without a content rule: the text a reader sees (headings, paragraphs, list items, link and alt text, one block a line), or its markup'},
};
