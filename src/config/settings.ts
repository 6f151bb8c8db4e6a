import { fetchDefaults } from './defaults.js';
import { GROUP } from './groups.js';
import { flagRow, setting, type ValuesOf } from './setting-row.js';
import { trustDefaults } from '../net/hosts/trust-options.js';
import { VERSION } from '../base/util/version.js';
import { parseHeaderLine, type HeaderRule } from '../net/http/headers.js';
import { checkProxyUrl } from '../net/http/proxy.js';
import {
	durationOrOffValue,
	durationValue,
	headerValue,
	timeValue,
	integerValue,
	numberValue,
	robotsAgentValue,
	rateValue,
	robotsValue,
	diffOfValue,
	conditionValue,
	renderValue,
	secondsValue,
	sizeOrOffValue,
	countOrOffValue,
	sizeValue,
	verifyValue,
	checksRateValue,
	untilValue,
	positiveSecondsValue,
	listenValue,
	listenHostsValue,
} from './values.js';

/** One setting that a flag and a pipeline file's stage option both take: its default as written, and its check. */
export interface Setting {
	default?: unknown;
	parse?(value: unknown): unknown;
}

/** `--method`: GET; HEAD then GET; HEAD where a sample agrees. */
export const METHODS = ['get', 'head', 'auto'] as const;

const duration = { type: 'string', format: 'duration' } as const;
const size = { type: 'string', format: 'size' } as const;
const off = { const: 'off' } as const;

/**
 * The sweep's settings, one row each (see `SettingRow`), in the order of their --help
 * headings: the CLI's flags, the pipeline file's stage options, the library's options
 * and their defaults are all made from this table. Adding a setting is one row here
 * plus its use (docs/internals/2-development.md).
 *
 * @example
 * sweepSettings.timeout.parse('2.5') // 2.5 (seconds)
 */
export const sweepSettings = {
	method: setting({
		group: GROUP.requests,
		doc: 'get; head (then GET if it may have changed); auto (HEAD per host where a sample agrees with GET)',
		default: 'get' as (typeof METHODS)[number],
		choices: METHODS,
		stage: 'probe',
		schema: {},
		option: 'method',
	}),
	timeout: setting({
		group: GROUP.requests,
		doc: 'Seconds allowed for one attempt',
		default: 15,
		parse: (value: unknown) => numberValue('timeout')(value)!,
		stage: 'probe',
		schema: { type: 'number', exclusiveMinimum: 0 },
		option: 'timeoutMs',
		unit: 'seconds',
	}),
	retries: setting({
		group: GROUP.requests,
		doc: 'Retries on network errors, 5xx and 429',
		default: 2,
		parse: integerValue('retries', 0),
		stage: 'probe',
		schema: { type: 'integer', minimum: 0 },
		option: 'retries',
	}),
	'max-retry-after': setting({
		group: GROUP.requests,
		doc: 'Longest Retry-After (seconds) to wait for; longer is an error',
		default: 60,
		parse: integerValue('max-retry-after', 0),
		stage: 'probe',
		schema: { type: 'integer', minimum: 0 },
		option: 'maxRetryAfterMs',
		unit: 'seconds',
	}),
	'user-agent': setting({
		group: GROUP.requests,
		doc: 'User-Agent header',
		schemaDoc: 'User-Agent header (default: revisit/<version> (+repository URL))',
		default: `revisit/${VERSION} (+https://github.com/revisit-crawler/revisit)`,
		schemaDefault: false,
		parse: headerValue('user-agent'),
		type: 'string',
		requiresArg: false,
		stage: 'probe',
		schema: { type: 'string', format: 'header' },
		option: 'userAgent',
	}),
	'accept-encoding': setting({
		group: GROUP.requests,
		doc: 'Accept-Encoding for the whole run (keeps ETags comparable)',
		default: 'gzip',
		parse: headerValue('accept-encoding'),
		type: 'string',
		requiresArg: false,
		stage: 'probe',
		schema: { type: 'string', format: 'header' },
		option: 'acceptEncoding',
	}),
	'max-body': setting({
		group: GROUP.requests,
		doc: 'Largest body, on the wire or decoded (gzip bombs stop here); larger is BODY_TOO_LARGE',
		schemaDoc: 'Largest body, on the wire or decoded (bytes, or 512KiB, 10MiB)',
		default: '10MiB',
		parse: sizeValue('max-body'),
		stage: 'probe',
		schema: { anyOf: [{ type: 'integer', minimum: 1 }, size] },
		option: 'maxBodyBytes',
		unit: 'bytes',
	}),
	'per-host': setting({
		group: GROUP.politeness,
		doc: 'Requests in flight per origin',
		default: 4,
		parse: integerValue('per-host', 1),
		stage: 'probe',
		schema: { type: 'integer', minimum: 1 },
		option: 'perHost',
	}),
	'host-rate': setting({
		group: GROUP.politeness,
		doc: 'Requests per second per origin [default: unlimited]',
		schemaDoc: 'Requests per second per origin (default: unlimited)',
		parse: numberValue('host-rate'),
		renamedFrom: 'rate',
		stage: 'probe',
		// The pipeline file's key is the one it always had.
		key: 'rate',
		schema: { type: 'number', exclusiveMinimum: 0 },
		option: 'rate',
	}),
	robots: setting({
		group: GROUP.politeness,
		doc: "Obey each origin's robots.txt (RFC 9309), or ignore it for your own sites",
		schemaDoc:
			"Obey each origin's robots.txt (RFC 9309): a disallowed URL gets reason robots and no request; " +
			'ignore it for your own sites (default: obey, or $REVISIT_ROBOTS)',
		defaultDescription: 'obey, or $REVISIT_ROBOTS',
		parse: robotsValue,
		choices: ['obey', 'ignore'] as const,
		env: 'REVISIT_ROBOTS',
		stage: 'probe',
		schema: {},
		option: 'robots',
	}),
	'robots-agent': setting({
		group: GROUP.politeness,
		doc: "The crawler's name matched against robots.txt's User-agent lines, whole [default: the --user-agent up to its /]",
		schemaDoc:
			"The crawler's name matched against robots.txt's User-agent lines, compared whole as Google does; " +
			'a name beyond letters, _ and - gets the * groups only (default: the userAgent up to its /)',
		parse: robotsAgentValue('robots-agent'),
		type: 'string',
		stage: 'probe',
		schema: { type: 'string', minLength: 1 },
		option: 'robotsAgent',
	}),
	'max-crawl-delay': setting({
		group: GROUP.politeness,
		doc: 'Longest robots.txt Crawl-delay to honour (seconds, or 30s, 2m); an origin asking more is deferred',
		default: '30s',
		parse: secondsValue('max-crawl-delay'),
		stage: 'probe',
		schema: { anyOf: [{ type: 'number', minimum: 0 }, duration] },
		option: 'maxCrawlDelayMs',
		unit: 'ms',
	}),
	'deny-private': setting({
		group: GROUP.politeness,
		doc: 'Refuse loopback, link-local and private addresses (checked after DNS), for URL lists you do not control',
		schemaDoc: 'Refuse loopback, link-local and private addresses (checked after DNS)',
		default: false,
		type: 'boolean',
		stage: 'probe',
		schema: { type: 'boolean' },
		option: 'denyPrivate',
	}),
	insecure: setting({
		group: GROUP.politeness,
		doc: 'Accept any TLS certificate (self-signed, expired, wrong host)',
		schemaDoc: 'Accept any TLS certificate',
		default: false,
		type: 'boolean',
		stage: 'probe',
		schema: { type: 'boolean' },
		option: 'insecure',
	}),
	audit: setting({
		group: GROUP.trust,
		doc: 'Fraction of conditional probes re-fetched unconditionally to catch lying 304s',
		default: trustDefaults.auditRate,
		parse: rateValue('audit'),
		stage: 'probe',
		schema: { type: 'number', minimum: 0, maximum: 1 },
		option: 'trust.auditRate',
	}),
	'verify-every': setting({
		group: GROUP.trust,
		doc: 'No URL goes longer than this without its body confirmed by a full download, whatever its server answers (spread over the runs; off to disable)',
		schemaDoc: 'No URL goes longer than this without its body confirmed by a full download, whatever its server answers (spread over the runs); off to disable',
		default: '30d',
		parse: verifyValue,
		stage: 'probe',
		schema: { anyOf: [duration, off] },
		option: 'trust.verifyEveryMs',
		unit: 'ms',
	}),
	'max-churn': setting({
		group: GROUP.trust,
		doc: "Hold back a host's changes when this fraction of its known URLs changed (0 = off); exit 3",
		schemaDoc: "Fraction of a host's known URLs that, changed, holds back its changes (0 = off); exit 3",
		default: 0.9,
		parse: rateValue('max-churn'),
		stage: 'churn-guard',
		schema: { type: 'number', minimum: 0, maximum: 1 },
		option: 'maxChurn',
	}),
	'churn-min': setting({
		group: GROUP.trust,
		doc: 'Known URLs of a host to see before the churn guard decides',
		schemaDoc: 'Known URLs of a host to see before deciding',
		default: 20,
		parse: integerValue('churn-min', 1),
		stage: 'churn-guard',
		schema: { type: 'integer', minimum: 1 },
		option: 'churnMin',
	}),
	'accept-churn': setting({
		group: GROUP.trust,
		doc: 'Let a blocked host through after a human looked (repeatable; or all)',
		schemaDoc: 'Hosts let through after a human looked (origins or hostnames), or ["all"]',
		default: [] as string[],
		repeatable: true,
		stage: 'churn-guard',
		schema: { type: 'array', items: { type: 'string', minLength: 1 } },
		option: 'acceptChurn',
		toOption: (hosts: string[]) => (hosts.includes('all') ? 'all' : hosts),
	}),
	ttl: setting({
		group: GROUP.schedule,
		doc: 'Skip URLs checked less than this long ago (30m, 6h, 2d)',
		parse: durationValue('ttl'),
		stage: 'due',
		schema: duration,
		option: 'ttlMs',
		unit: 'ms',
	}),
	adaptive: setting({
		group: GROUP.schedule,
		doc: 'Check each URL again when it has even odds of having changed (ln 2 / its estimated change rate), within --min-interval and --max-interval',
		schemaDoc: 'Check each URL again when it has even odds of having changed (ln 2 / its estimated change rate), within minInterval and maxInterval',
		default: false,
		type: 'boolean',
		stage: 'due',
		schema: { type: 'boolean' },
		option: 'adaptive',
	}),
	'min-interval': setting({
		group: GROUP.schedule,
		doc: 'Shortest adaptive interval',
		default: '1h',
		parse: (value: unknown) => durationValue('min-interval')(value)!,
		stage: 'due',
		schema: duration,
		option: 'minIntervalMs',
		unit: 'ms',
	}),
	'max-interval': setting({
		group: GROUP.schedule,
		doc: 'Longest adaptive interval',
		default: '30d',
		parse: (value: unknown) => durationValue('max-interval')(value)!,
		stage: 'due',
		schema: duration,
		option: 'maxIntervalMs',
		unit: 'ms',
	}),
	budget: setting({
		group: GROUP.schedule,
		doc:
			'Check at most N URLs in this run: new ones first, then those that need a --verify-every check of their own, ' +
			'then those a trusted sitemap lastmod says changed, then those a check is worth most on (estimated change rate and time since the last ' +
			'check); the rest are left for later. A chosen URL due for verification is asked unconditionally [default: all due]',
		schemaDoc:
			'Check at most this many URLs in the run: new ones first, then those verifyEvery has made due, ' +
			'then those a check is worth most on; the rest are left for later (default: all due)',
		parse: integerValue('budget', 0),
		stage: 'due',
		schema: { type: 'integer', minimum: 0 },
		option: 'budget',
	}),
	'host-budget': setting({
		group: GROUP.schedule,
		doc: 'Check at most N URLs per origin in this run (politeness), picked as for --budget',
		schemaDoc: 'Check at most this many URLs per origin in the run, picked as for budget',
		parse: integerValue('host-budget', 1),
		stage: 'due',
		schema: { type: 'integer', minimum: 1 },
		option: 'hostBudget',
	}),
	now: setting({
		group: GROUP.schedule,
		doc: 'Take this time as now (ISO 8601 or epoch ms) for due times, the budget and the times stored: for simulations, tests and back-fills',
		schemaDoc: 'Take this time as now (ISO 8601 or epoch ms) for due times, the budget and the times stored (default: the clock, or $REVISIT_NOW)',
		defaultDescription: 'the clock, or $REVISIT_NOW',
		parse: timeValue('now'),
		env: 'REVISIT_NOW',
		stage: 'due',
		schema: {
			anyOf: [
				{ type: 'integer', minimum: 0 },
				{ type: 'string', pattern: '^\\d{4}-\\d\\d' },
			],
		},
		option: 'now',
	}),
	'keep-text': setting({
		group: GROUP.content,
		doc:
			"Keep up to this much of every page's text from its first sight (compressed, stored once per distinct text), " +
			'so that its next change shows as a word diff in revisit report (off: keep none)',
		schemaDoc: "Keep up to this much of a changed page's counted text, for the word diff of its next change in revisit report (off: none)",
		default: '32KiB',
		parse: sizeOrOffValue('keep-text'),
		stage: 'probe',
		schema: { anyOf: [{ type: 'integer', minimum: 0 }, size, off] },
		option: 'keepTextBytes',
		unit: 'bytes',
	}),
	'keep-text-total': setting({
		group: GROUP.content,
		doc: 'Keep at most this much text in the store in all, compressed; past it the least recently taken goes first (off: keep none)',
		schemaDoc: 'Keep at most this much counted text in the store in all (off: none)',
		default: '256MiB',
		parse: sizeOrOffValue('keep-text-total'),
		stage: 'probe',
		schema: { anyOf: [{ type: 'integer', minimum: 0 }, size, off] },
		option: 'keepTextTotalBytes',
		unit: 'bytes',
	}),
	'keep-versions': setting({
		group: GROUP.content,
		doc:
			"Keep this many versions of each page's text (the newest whole, older ones as compressed reverse deltas) for revisit log and diff; " +
			'past it the oldest go, never the newest. They count in --keep-text-total, where the oldest versions go first (off: the newest only)',
		schemaDoc: "Keep this many versions of each page's counted text, for revisit log and diff; past it the oldest go, never the newest (off: the newest only)",
		default: 50,
		parse: countOrOffValue('keep-versions'),
		stage: 'probe',
		schema: { anyOf: [{ type: 'integer', minimum: 0 }, off] },
		option: 'keepVersions',
	}),
	'diff-of': setting({
		group: GROUP.content,
		doc:
			'What revisit report diffs of an HTML page without a content rule: the text a reader sees (headings, ' +
			'paragraphs, list items, link and alt text, one block a line), or its markup',
		schemaDoc: 'What revisit report diffs of an HTML page without a content rule: the text a reader sees, one block a line (visible), or its markup (source)',
		default: 'visible' as 'visible' | 'source',
		parse: diffOfValue,
		choices: ['visible', 'source'] as const,
		stage: 'probe',
		schema: {},
		option: 'diffOf',
	}),
	render: setting({
		group: GROUP.content,
		doc:
			'Render pages in Chromium: auto only where the static page cannot answer (a --select or --product that finds nothing, ' +
			'an empty shell), and then revalidates what the page loaded without a browser (docs/8-rendering.md)',
		schemaDoc: 'Render pages in Chromium (as --render): auto only where the static page cannot answer the rules',
		default: 'never' as 'never' | 'auto' | 'always',
		parse: renderValue,
		choices: ['never', 'auto', 'always'] as const,
		stage: 'probe',
		schema: {},
		option: 'render.mode',
	}),
	browser: setting({
		group: GROUP.content,
		doc: "The Chromium --render launches (Debian's chromium; nothing is downloaded)",
		schemaDoc: 'The Chromium to launch (default: $REVISIT_BROWSER, else /usr/bin/chromium)',
		defaultDescription: '$REVISIT_BROWSER, else /usr/bin/chromium',
		type: 'string',
		env: 'REVISIT_BROWSER',
		stage: 'probe',
		schema: { type: 'string', minLength: 1 },
		option: 'render.browser',
	}),
	'render-timeout': setting({
		group: GROUP.content,
		doc: "Seconds a page may take to render: until a rule's selector appears, else the network is idle",
		schemaDoc: 'Seconds a page may take to render',
		default: 15,
		parse: (value: unknown) => numberValue('render-timeout')(value)!,
		stage: 'probe',
		schema: { type: 'number', exclusiveMinimum: 0 },
		option: 'render.timeoutMs',
		unit: 'seconds',
	}),
	'render-concurrency': setting({
		group: GROUP.content,
		doc: 'Pages rendered at once (one browser, a context per host)',
		schemaDoc: 'Pages rendered at once',
		default: 2,
		parse: integerValue('render-concurrency', 1),
		stage: 'probe',
		schema: { type: 'integer', minimum: 1 },
		option: 'render.concurrency',
	}),
	'render-memory': setting({
		group: GROUP.content,
		doc: "A page's renderer process past this much resident memory is stopped, and the URL gets RENDER_TOO_LARGE; the browser and its other pages go on",
		schemaDoc: "A page's renderer process past this much memory is stopped (RENDER_TOO_LARGE)",
		default: '1GiB',
		parse: sizeValue('render-memory'),
		stage: 'probe',
		schema: { anyOf: [{ type: 'integer', minimum: 1 }, size] },
		option: 'render.memoryBytes',
		unit: 'bytes',
	}),
	when: setting({
		group: GROUP.content,
		doc:
			"Report a change (or a first sight) only when this holds, e.g. 'changed_words > 3', 'contains(text, " +
			"\"in stock\")' or 'price < 40 or (in_stock and not was_in_stock)'; a change that does not is the new baseline, silently (reason unmet). " +
			'Names: price, previous_price, currency, availability, price_change, in_stock, was_in_stock, text, changed_words',
		schemaDoc:
			'Report a change (or a first sight) only when this condition holds, as --when: e.g. "changed_words > 3" or "price ' +
			'< 40 or (in_stock and not was_in_stock)"; a change that does not is the new baseline, silently (reason unmet)',
		parse: conditionValue,
		type: 'string',
		stage: 'compare',
		schema: { type: 'string', format: 'condition' },
		option: 'when',
	}),
	concurrency: setting({
		group: GROUP.scale,
		doc: 'Requests in flight in total',
		default: 24,
		parse: integerValue('concurrency', 1),
		stage: 'probe',
		schema: { type: 'integer', minimum: 1 },
		option: 'concurrency',
	}),
	'local-workers': setting({
		group: GROUP.scale,
		doc: 'Send the requests from N worker threads (HTTP, decoding and hashing on every core; this process keeps the store and the limits); 0 = this thread',
		schemaDoc: 'Send the requests from this many worker threads (every core); 0 = the main thread',
		default: 0,
		parse: integerValue('local-workers', 0),
		stage: 'probe',
		schema: { type: 'integer', minimum: 0 },
		option: 'localWorkers',
	}),
};

/**
 * The order the probe stage's options are listed in a pipeline file's schema (and so in
 * its "the probe stage takes …" messages) and the library's option names: requests
 * first, where --help goes by heading. A row it does not name comes after these.
 */
export const FILE_ORDER = [
	'concurrency',
	'per-host',
	'host-rate',
	'accept-encoding',
	'user-agent',
	'timeout',
	'retries',
	'max-retry-after',
	'method',
	'audit',
	'verify-every',
	'max-body',
	'deny-private',
	'insecure',
	'local-workers',
] as const;

/** A sweep's settings once checked, by their flag names: what `sweepOptionsFrom` turns into options. */
export type SweepSettings = ValuesOf<typeof sweepSettings>;

/**
 * A watch's own settings (`revisit watch`, and a watch-mode pipeline's `watch`): its rate
 * of checks over every origin, each origin's request rate, when it stops, its clock, how
 * often sitemaps are read again, and where it serves its metrics (and by which names).
 *
 * @example
 * watchSettings.rate.parse!('5000/h') // 120000 checks a day
 */
const watchRows = {
	rate: { default: '1/s', parse: checksRateValue('rate') },
	'host-rate': { parse: numberValue('host-rate') },
	until: { parse: untilValue('until') },
	'time-scale': { default: 1, parse: numberValue('time-scale') },
	'sitemap-every': { default: '1d', parse: durationValue('sitemap-every') },
	lease: { default: '10m', parse: positiveSecondsValue('lease') },
	listen: { parse: listenValue('listen') },
	'listen-host': { default: [], parse: listenHostsValue('listen-host') },
	'status-every': { default: '15m', parse: durationOrOffValue('status-every') },
} satisfies Record<'rate' | 'host-rate' | 'until' | 'time-scale' | 'sitemap-every' | 'lease' | 'listen' | 'listen-host' | 'status-every', Setting>;

/** Each of the watch's settings, its check's value type kept (for the flag's), and its default, if any. */
export const watchSettings: { [K in keyof typeof watchRows]: (typeof watchRows)[K] & { default?: unknown } } = watchRows;

/** The fetch phase's own limits, for a crawl (`crawl`, `sweep --fetch`, a pipeline's fetch stage): one row each. */
export const crawlSettings = {
	'fetch-concurrency': flagRow({
		group: GROUP.scale,
		doc: 'Fetch phase: downloads in flight in total',
		default: fetchDefaults.concurrency,
		parse: integerValue('fetch-concurrency', 1),
	}),
	'fetch-per-host': flagRow({
		group: GROUP.politeness,
		doc: 'Fetch phase: downloads in flight per origin',
		default: fetchDefaults.perHost,
		parse: integerValue('fetch-per-host', 1),
	}),
};

/**
 * Checks `-H` / `--header` values (one or repeated), in curl's form `Name: value`.
 *
 * @example
 * headersValue(['Accept-Language: fr']) // [{ name: 'Accept-Language', value: 'fr' }]
 */
export const headersValue = (value: unknown): HeaderRule[] => {
	const lines = value === undefined ? [] : Array.isArray(value) ? value : [value];
	return lines.map((line) => parseHeaderLine(String(line), '--header'));
};

/** `--proxy URL`, checked; false for `--no-proxy`. */
export const proxyValue = (value: unknown): string | false | undefined => {
	if (value === undefined || value === false) return value;
	const last = Array.isArray(value) ? value[value.length - 1] : value;
	if (last === false || last === 'false') return false;
	return checkProxyUrl(String(last), '--proxy');
};
