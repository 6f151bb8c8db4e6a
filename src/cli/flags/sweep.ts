import { GROUP, repeatable, type Flag } from './groups.js';
import { sweepSettings, type SweepSettings } from '../../config/settings.js';
import { flagOf } from './setting.js';

/** Parsed sweep flags, as yargs hands them over: the sweep's settings, checked. */
export type SweepFlags = SweepSettings;

/** The sweep's flags: yargs option definitions, each with its setting's default and check (`config/settings.ts`), in the order of their --help headings. */
export const sweepFlagOptions: Record<keyof SweepFlags, Flag> = {
	method: { group: GROUP.requests, ...flagOf(sweepSettings.method), choices: ['get', 'head', 'auto'], describe: 'get; head (then GET if it may have changed); auto (HEAD per host where a sample agrees with GET)'},
	timeout: { group: GROUP.requests, ...flagOf(sweepSettings.timeout), requiresArg: true, describe: 'Seconds allowed for one attempt'},
	retries: { group: GROUP.requests, ...flagOf(sweepSettings.retries), requiresArg: true, describe: 'Retries on network errors, 5xx and 429'},
	'max-retry-after': { group: GROUP.requests, ...flagOf(sweepSettings['max-retry-after']), requiresArg: true, describe: 'Longest Retry-After (seconds) to wait for; longer is an error'},
	'user-agent': { group: GROUP.requests, ...flagOf(sweepSettings['user-agent']), type: 'string', describe: 'User-Agent header'},
	'accept-encoding': { group: GROUP.requests, ...flagOf(sweepSettings['accept-encoding']), type: 'string', describe: 'Accept-Encoding for the whole run (keeps ETags comparable)'},
	'max-body': { group: GROUP.requests, ...flagOf(sweepSettings['max-body']), requiresArg: true, describe: 'Largest body, on the wire or decoded (gzip bombs stop here); larger is BODY_TOO_LARGE'},
	'per-host': { group: GROUP.politeness, ...flagOf(sweepSettings['per-host']), requiresArg: true, describe: 'Requests in flight per origin'},
	rate: { group: GROUP.politeness, ...flagOf(sweepSettings.rate), requiresArg: true, describe: 'Requests per second per origin [default: unlimited]'},
	robots: { group: GROUP.politeness, ...flagOf(sweepSettings.robots), choices: ['obey', 'ignore'], defaultDescription: 'obey, or $REVISIT_ROBOTS', describe: 'Obey each origin\'s robots.txt (RFC 9309), or ignore it for your own sites'},
	'robots-agent': { group: GROUP.politeness, ...flagOf(sweepSettings['robots-agent']), type: 'string', requiresArg: true, describe: 'The crawler\'s name matched against robots.txt\'s User-agent lines, whole [default: the --user-agent up to its /]'},
	'max-crawl-delay': { group: GROUP.politeness, ...flagOf(sweepSettings['max-crawl-delay']), requiresArg: true, describe: 'Longest robots.txt Crawl-delay to honour (seconds, or 30s, 2m); an origin asking more is deferred'},
	'deny-private': { group: GROUP.politeness, ...flagOf(sweepSettings['deny-private']), type: 'boolean', describe: 'Refuse loopback, link-local and private addresses (checked after DNS), for URL lists you do not control'},
	insecure: { group: GROUP.politeness, ...flagOf(sweepSettings.insecure), type: 'boolean', describe: 'Accept any TLS certificate (self-signed, expired, wrong host)'},
	audit: { group: GROUP.trust, ...flagOf(sweepSettings.audit), requiresArg: true, describe: 'Fraction of conditional probes re-fetched unconditionally to catch lying 304s'},
	'verify-every': {
		group: GROUP.trust,
		...flagOf(sweepSettings['verify-every']),
		requiresArg: true,
		describe: 'No URL goes longer than this without its body confirmed by a full download, whatever its server answers (spread over the runs; off to disable)',
	},
	'max-churn': { group: GROUP.trust, ...flagOf(sweepSettings['max-churn']), requiresArg: true, describe: 'Hold back a host\'s changes when this fraction of its known URLs changed (0 = off); exit 3'},
	'churn-min': { group: GROUP.trust, ...flagOf(sweepSettings['churn-min']), requiresArg: true, describe: 'Known URLs of a host to see before the churn guard decides'},
	'accept-churn': { group: GROUP.trust, ...flagOf(sweepSettings['accept-churn']), ...repeatable, describe: 'Let a blocked host through after a human looked (repeatable; or all)'},
	ttl: { group: GROUP.schedule, ...flagOf(sweepSettings.ttl), requiresArg: true, describe: 'Skip URLs checked less than this long ago (30m, 6h, 2d)'},
	adaptive: { group: GROUP.schedule, ...flagOf(sweepSettings.adaptive), type: 'boolean', describe: 'Check each URL again when it has even odds of having changed (ln 2 / its estimated change rate), within --min-interval and --max-interval'},
	'min-interval': { group: GROUP.schedule, ...flagOf(sweepSettings['min-interval']), requiresArg: true, describe: 'Shortest adaptive interval'},
	'max-interval': { group: GROUP.schedule, ...flagOf(sweepSettings['max-interval']), requiresArg: true, describe: 'Longest adaptive interval'},
	budget: { group: GROUP.schedule, ...flagOf(sweepSettings.budget), requiresArg: true, describe: 'Check at most N URLs in this run: new ones first, then those that need a --verify-every check of their own, then those a trusted sitemap lastmod says changed, then those a check is worth most on (estimated change rate and time since the last check); the rest are left for later. A chosen URL due for verification is asked unconditionally [default: all due]'},
	'host-budget': { group: GROUP.schedule, ...flagOf(sweepSettings['host-budget']), requiresArg: true, describe: 'Check at most N URLs per origin in this run (politeness), picked as for --budget'},
	now: { group: GROUP.schedule, ...flagOf(sweepSettings.now), requiresArg: true, defaultDescription: 'the clock, or $REVISIT_NOW', describe: 'Take this time as now (ISO 8601 or epoch ms) for due times, the budget and the times stored: for simulations, tests and back-fills'},
	'keep-text': { group: GROUP.content, ...flagOf(sweepSettings['keep-text']), requiresArg: true, describe: "Keep up to this much of every page's text from its first sight (compressed, stored once per distinct text), so that its next change shows as a word diff in revisit report (off: keep none)"},
	'keep-text-total': { group: GROUP.content, ...flagOf(sweepSettings['keep-text-total']), requiresArg: true, describe: 'Keep at most this much text in the store in all, compressed; past it the least recently taken goes first (off: keep none)'},
	'keep-versions': { group: GROUP.content, ...flagOf(sweepSettings['keep-versions']), requiresArg: true, describe: "Keep this many versions of each page's text (the newest whole, older ones as compressed reverse deltas) for revisit log and diff; past it the oldest go, never the newest. They count in --keep-text-total, where the oldest versions go first (off: the newest only)"},
	'diff-of': { group: GROUP.content, ...flagOf(sweepSettings['diff-of']), choices: ['visible', 'source'], describe: 'What revisit report diffs of an HTML page without a content rule: the text a reader sees (headings, paragraphs, list items, link and alt text, one block a line), or its markup'},
	render: { group: GROUP.content, ...flagOf(sweepSettings.render), choices: ['never', 'auto', 'always'], describe: 'Render pages in Chromium: auto only where the static page cannot answer (a --select or --product that finds nothing, an empty shell), and then revalidates what the page loaded without a browser (docs/8-rendering.md)' },
	browser: { group: GROUP.content, ...flagOf(sweepSettings.browser), type: 'string', requiresArg: true, defaultDescription: '$REVISIT_BROWSER, else /usr/bin/chromium', describe: 'The Chromium --render launches (Debian\'s chromium; nothing is downloaded)' },
	'render-timeout': { group: GROUP.content, ...flagOf(sweepSettings['render-timeout']), requiresArg: true, describe: 'Seconds a page may take to render: until a rule\'s selector appears, else the network is idle' },
	'render-concurrency': { group: GROUP.content, ...flagOf(sweepSettings['render-concurrency']), requiresArg: true, describe: 'Pages rendered at once (one browser, a context per host)' },
	'render-memory': { group: GROUP.content, ...flagOf(sweepSettings['render-memory']), requiresArg: true, describe: 'A page\'s renderer process past this much resident memory is stopped, and the URL gets RENDER_TOO_LARGE; the browser and its other pages go on' },
	when: {
		group: GROUP.content,
		...flagOf(sweepSettings.when),
		type: 'string',
		requiresArg: true,
		describe: "Report a change (or a first sight) only when this holds, e.g. 'changed_words > 3', 'contains(text, \"in stock\")' or 'price < 40 or (in_stock and not was_in_stock)'; a change that does not is the new baseline, silently (reason unmet). Names: price, previous_price, currency, availability, price_change, in_stock, was_in_stock, text, changed_words",
	},
	concurrency: { group: GROUP.scale, ...flagOf(sweepSettings.concurrency), requiresArg: true, describe: 'Requests in flight in total'},
	'local-workers': {
		group: GROUP.scale,
		...flagOf(sweepSettings['local-workers']),
		requiresArg: true,
		describe: 'Send the requests from N worker threads (HTTP, decoding and hashing on every core; this process keeps the store and the limits); 0 = this thread',
	},
};
