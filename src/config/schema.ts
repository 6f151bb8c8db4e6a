import { crawlSettings, FILE_ORDER, sweepSettings, watchSettings } from './settings.js';
import { headerListSchema, ruleListSchema } from './schema-rules.js';
import { stageProperties } from './setting-row.js';
import { sinks } from './schema-sinks.js';

export { headerListSchema, headerSchema, ruleListSchema, ruleSchema } from './schema-rules.js';

/**
 * The JSON Schema of a pipeline file: the one source of the file's shape. Ajv validates
 * against it (`validate.ts`), the TypeScript types are inferred from it (`types.ts`),
 * `revisit schema` prints it and `config/pipeline.schema.json` is it, written out
 * (`npm run schema`; a test fails when the two differ). The stages' options are the
 * settings' rows (`settings.ts`, which the flags are made of too): each row's key, schema,
 * default and description, so they cannot drift; values are checked again by the
 * settings' own checks when a pipeline is compiled.
 *
 * @example
 * new Ajv({ strict: true, allErrors: true }).compile(pipelineSchema)
 */

const watchDefault = (flag: keyof typeof watchSettings): unknown => watchSettings[flag].default;

const path = { type: 'string', minLength: 1 } as const;
const duration = { type: 'string', format: 'duration' } as const;
const regexes = { type: 'array', items: { type: 'string', format: 'regex' } } as const;

const sources = [
	{
		type: 'object',
		title: 'a stdin source',
		additionalProperties: false,
		required: ['type'],
		properties: { type: { const: 'stdin', description: 'URLs on standard input, one per line' } },
	},
	{
		type: 'object',
		title: 'a file source',
		additionalProperties: false,
		required: ['type', 'path'],
		properties: {
			type: { const: 'file', description: 'URLs in a file: one per line, or a JSON array of strings' },
			path: { ...path, description: 'The file, relative to the current directory' },
			format: {
				enum: ['lines', 'json'],
				description: 'lines (blank lines and # comments skipped) or json (an array of URL strings); default: json for a .json file, else lines',
			},
		},
	},
	{
		type: 'object',
		title: 'a urls source',
		additionalProperties: false,
		required: ['type', 'urls'],
		properties: { type: { const: 'urls', description: 'URLs listed inline' }, urls: { type: 'array', items: { type: 'string' } } },
	},
	{
		type: 'object',
		title: 'a sitemap source',
		additionalProperties: false,
		required: ['type', 'url'],
		properties: {
			type: { const: 'sitemap', description: 'The URLs of a sitemap.xml or sitemap index (followed recursively; gzip allowed); each entry keeps its lastmod' },
			url: { type: 'string', format: 'http-url' },
		},
	},
	{
		type: 'object',
		title: 'a command source',
		additionalProperties: false,
		required: ['type', 'command'],
		properties: { type: { const: 'command', description: 'A shell command whose standard output lines are URLs' }, command: { type: 'string', minLength: 1 } },
	},
] as const;
const source = { type: 'object', discriminator: { propertyName: 'type' }, oneOf: sources } as const;

/** `extra`'s keys placed after `key` in `object`'s: where a file's schema always listed them. */
function after<T extends object, E extends object>(object: T, key: keyof T, extra: E): T & E {
	const entries = Object.entries(object);
	const at = entries.findIndex(([name]) => name === key) + 1;
	return Object.fromEntries([...entries.slice(0, at), ...Object.entries(extra), ...entries.slice(at)]) as T & E;
}

const probeOptions = after(stageProperties(sweepSettings, 'probe', FILE_ORDER), 'localWorkers', {
	candidates: { type: 'boolean', default: false, description: 'Never download a body: report what may have changed (reason candidate), as sweep --candidates' },
	headers: headerListSchema,
} as const);

const stages = [
	{
		type: 'object',
		title: 'the normalise stage',
		additionalProperties: false,
		required: ['use'],
		properties: { use: { const: 'normalise', description: 'WHATWG URL normal form; not http(s) is bad input. Always runs.' } },
	},
	{
		type: 'object',
		title: 'the dedupe stage',
		additionalProperties: false,
		required: ['use'],
		properties: { use: { const: 'dedupe', description: 'Each normalised URL once per run. Always runs.' } },
	},
	{
		type: 'object',
		title: 'the filter stage',
		additionalProperties: false,
		required: ['use'],
		properties: {
			use: { const: 'filter', description: 'Drop URLs before they are looked up or probed (counted as filtered out)' },
			include: { ...regexes, description: 'Keep only URLs matching at least one of these regular expressions' },
			exclude: { ...regexes, description: 'Drop URLs matching any of these regular expressions' },
			sameHost: { type: 'boolean', default: false, description: "Drop sitemap entries whose host differs from the sitemap URL's host" },
		},
	},
	{
		type: 'object',
		title: 'the due stage',
		additionalProperties: false,
		required: ['use'],
		properties: {
			use: { const: 'due', description: 'Skip URLs not due yet (their stored next-due time, or --ttl); set the next due time. Always runs.' },
			...stageProperties(sweepSettings, 'due'),
		},
	},
	{
		type: 'object',
		title: 'the probe stage',
		additionalProperties: false,
		required: ['use'],
		properties: {
			use: { const: 'probe', description: 'Conditional requests with the stored validators. Always runs.' },
			...probeOptions,
		},
	},
	{
		type: 'object',
		title: 'the compare stage',
		additionalProperties: false,
		required: ['use'],
		properties: {
			use: { const: 'compare', description: 'Judge each probe against the stored record. Always runs.' },
			rules: ruleListSchema,
			...stageProperties(sweepSettings, 'compare'),
		},
	},
	{
		type: 'object',
		title: 'the churn-guard stage',
		additionalProperties: false,
		required: ['use'],
		properties: {
			use: {
				const: 'churn-guard',
				description: "Hold back a host's changes when nearly all its known URLs changed. Runs with its defaults unless maxChurn is 0.",
			},
			...stageProperties(sweepSettings, 'churn-guard'),
		},
	},
	{
		type: 'object',
		title: 'the fetch stage',
		additionalProperties: false,
		required: ['use'],
		properties: {
			use: { const: 'fetch', description: 'Crawl: probe headers only, then download what may have changed, for a dir sink (as revisit crawl)' },
			fetchConcurrency: { type: 'integer', minimum: 1, default: crawlSettings['fetch-concurrency'].default, description: 'Downloads in flight in total' },
			fetchPerHost: { type: 'integer', minimum: 1, default: crawlSettings['fetch-per-host'].default, description: 'Downloads in flight per origin' },
		},
	},
] as const;

/** A watch's own settings (`"mode": "watch"`): `revisit watch`'s flags in camelCase. */
const watch = {
	type: 'object',
	title: 'the watch',
	description: 'How the watch runs (only with "mode": "watch"): its rate of checks, its clock, how often sitemaps are read again, where it serves its metrics',
	additionalProperties: false,
	properties: {
		rate: {
			type: 'string',
			format: 'checks-rate',
			default: watchDefault('rate'),
			description: 'Checks over every origin, spread evenly: 20/s, 300/min, 5000/h, 100000/d',
		},
		hostRate: { type: 'number', exclusiveMinimum: 0, description: 'Requests per second per origin (default: unlimited; robots.txt Crawl-delay always holds)' },
		until: {
			anyOf: [
				{ type: 'integer', minimum: 0 },
				{ type: 'string', format: 'until' },
			],
			description: "Stop at this time (ISO 8601 or epoch ms), or after this long (12h, 30d) on the schedule's clock (default: run until SIGTERM or SIGINT)",
		},
		timeScale: {
			type: 'number',
			exclusiveMinimum: 0,
			default: watchDefault('time-scale'),
			description:
				'Run the schedule this many times faster than the wall clock (for simulations and tests); ' +
				'rate and every duration are read in its clock, politeness in wall time',
		},
		sitemapEvery: { ...duration, default: watchDefault('sitemap-every'), description: "How often sitemap sources are read again, on the schedule's clock" },
		lease: {
			...duration,
			default: watchDefault('lease'),
			description:
				'How long a claimed URL is held (wall time) before it returns to the schedule: ' +
				'a watch killed mid-check loses nothing, and on a Redis store the others check it then',
		},
		listen: {
			type: 'string',
			format: 'listen',
			description: 'Serve /metrics (Prometheus), /healthz and / (the live report page) on HOST:PORT: 127.0.0.1:9464, :9464 or [::1]:9464',
		},
		listenHost: {
			type: 'array',
			items: { type: 'string', format: 'listen-host' },
			default: watchDefault('listen-host'),
			description:
				"More names the listening server answers to in the Host header (a reverse proxy's, " +
				'the name Prometheus scrapes it by), beside the address it listens on',
		},
		statusEvery: {
			anyOf: [duration, { const: 'off' }],
			default: watchDefault('status-every'),
			description:
				'Where stderr is not a terminal (a log, the journal), write a status line this often (wall time): ' +
				'URLs watched, checks, changes, the backlog; off for none',
		},
	},
} as const;

export const pipelineSchema = {
	$schema: 'http://json-schema.org/draft-07/schema#',
	$id: 'https://github.com/revisit-crawler/revisit/raw/main/config/pipeline.schema.json',
	title: 'a pipeline',
	description: 'A revisit pipeline: where URLs come from, how the sweep is configured, where verdicts go. Run with revisit run FILE.',
	type: 'object',
	additionalProperties: false,
	required: ['source', 'sinks'],
	properties: {
		$schema: { type: 'string', description: 'This schema, for editors' },
		mode: {
			enum: ['run', 'watch'],
			default: 'run',
			description:
				'run: read the sources once, check what is due, stop (revisit run); watch: keep checking, ' +
				"each URL when a check is worth most, under the watch's rate (revisit watch)",
		},
		store: {
			description: 'The validator store: a directory, a redis:// URL, or backend settings. Default: $REVISIT_STORE, else ./.revisit',
			anyOf: [
				{ type: 'string', minLength: 1 },
				{
					type: 'object',
					title: 'the store',
					additionalProperties: false,
					properties: {
						type: {
							enum: ['level', 'memory', 'redis'],
							default: 'level',
							description: 'level: a LevelDB directory; memory: nothing kept after the run; redis: a Redis server, which several processes can share',
						},
						path: { ...path, description: 'The LevelDB directory (type level)' },
						url: {
							type: 'string',
							format: 'redis-url',
							description:
								'The Redis server (type redis): redis://[user:password@]host:port[/db][?prefix=NAME], ' +
								'rediss:// for TLS, redis+cluster://host:port[?prefix=NAME] for a Redis Cluster',
						},
					},
				},
			],
		},
		source: { description: 'Where URLs come from: one source, or a list read in order', anyOf: [source, { type: 'array', minItems: 1, items: source }] },
		stages: {
			type: 'array',
			description: 'Stages to configure or add, in pipeline order; stages left out run with their defaults',
			items: { type: 'object', discriminator: { propertyName: 'use' }, oneOf: stages },
		},
		sinks: { type: 'array', minItems: 1, description: 'Where verdicts go', items: { type: 'object', discriminator: { propertyName: 'type' }, oneOf: sinks } },
		watch,
	},
} as const;

/** Stage names in the order they run; a pipeline file lists them in this order. */
export const STAGE_ORDER = stages.map((stage) => stage.properties.use.const);
