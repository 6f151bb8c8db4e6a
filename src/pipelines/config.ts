import { crawlSettings, sweepSettings, watchSettings, type Setting, type SweepSettings } from '../config/settings.js';
import type { SettingTable } from '../config/setting-row.js';
import type { PipelineConfig, StageConfig } from '../config/pipeline-config.js';
import { ConfigError, RevisitError, UsageError } from '../base/errors/index.js';
import { checkNotify, notifyOptionsOf, reportsOf, sinkFrom } from '../io/sinks/index.js';
import { warcInfo } from '../outputs/warc/info.js';
import { compileRules, type RuleSpec } from '../domain/content/rules.js';
import type { Sink } from '../io/sinks/sink.js';
import { sourceFrom, sources } from '../io/sources/index.js';
import type { Source } from '../io/sources/source.js';
import type { FilterOptions } from '../stages/filter.js';
import { MemoryStore } from '../store/level/memory.js';
import { checkHeader, type HeaderRule } from '../net/http/headers.js';
import { proxyFromEnv } from '../net/http/proxy.js';
import type { ValidatorStore } from '../store/model/types.js';
import type { RunShape } from './compose.js';
import { crawlOptions, type CrawlOptions } from './fetch.js';
import { normaliseSweepOptions } from './normalise-options.js';
import { sweepOptionsFrom } from './options-from-settings.js';
import type { SweepOptions } from './sweep-options.js';
import { watchSettingsFrom, type WatchSettings } from './watch-options.js';

/** A validated pipeline, ready to run: the same options and stages a CLI command would build. */
export interface CompiledPipeline {
	/** A directory or Redis URL, a store object (`memory`), or undefined for the default ($REVISIT_STORE, else ./.revisit). */
	store: string | ValidatorStore | undefined;
	/** The run's options (a crawl's sweep phase). */
	options: SweepOptions;
	/** Set when the pipeline has a fetch stage: both phases' options, as `revisit crawl`. */
	crawl?: CrawlOptions | undefined;
	filter?: FilterOptions | undefined;
	source: Source;
	sinks: Sink[];
	/** What a run awaits before its first request: apprise's dry run of its notify sinks' URLs (see `checkStart`). */
	checks: Array<() => Promise<void>>;
	/** Its `report` sinks: pages written when the run ends. */
	reports: Array<{ path: string; runs: number }>;
	/**
	 * Set in watch mode (`"mode": "watch"`): the watch's own settings, checked as `revisit
	 * watch`'s flags are; the watch takes `options` less a sweep's run schedule (watch/build.ts).
	 */
	watch?: WatchSettings | undefined;
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Compiles a validated config. Stage options are gathered (each name belongs to one
 * stage), then go through the settings the CLI's flags are made of (each one's default
 * and check, by its camelCase name; `config/settings.ts`) and `sweepOptionsFrom`, so a
 * pipeline and the matching command line get identical options. Stages left out run
 * with their defaults. `context.env` gives the values of headers written `{"env": "NAME"}`
 * (default: this process's environment); `context.proxyEnv`, when given, the proxies
 * (HTTP_PROXY and kin), as a command's flags take them.
 *
 * @example
 * const compiled = compilePipeline(validatePipeline(config), { env: process.env, proxyEnv: process.env });
 */
export function compilePipeline(
	config: PipelineConfig,
	context: { env?: Record<string, string | undefined>; proxyEnv?: Record<string, string | undefined> } = {},
): CompiledPipeline {
	const stages = config.stages ?? [];
	const stageOf = new Map<string, number>();
	const values: Record<string, unknown> = {};
	stages.forEach(({ use: _use, ...options }, i) => {
		for (const [name, value] of Object.entries(options)) {
			values[name] = value;
			stageOf.set(name, i);
		}
	});
	const checked = (table: Record<string, Setting>, name: string, value: unknown, at: string): unknown => {
		try {
			return value === undefined || !table[name]!.parse ? value : table[name]!.parse!(value);
		} catch (error) {
			const message = error instanceof RevisitError ? error.message.replace(/^--[\w-]+:? /, '') : String(error);
			throw new ConfigError([`pipeline: ${at}: ${message}`], { cause: error });
		}
	};
	const valueOf = (table: Record<string, Setting & { key?: string }>, name: string): unknown => {
		const key = table[name]!.key ?? camel(name);
		return checked(table, name, values[key] ?? table[name]!.default, `/stages/${stageOf.get(key) ?? 0}/${key}`);
	};
	const watch =
		config.mode === 'watch'
			? watchSettingsFrom((name) =>
					checked(
						watchSettings,
						name,
						(config.watch as Record<string, unknown> | undefined)?.[camel(name)] ?? watchSettings[name].default,
						`/watch/${camel(name)}`,
					),
				)
			: undefined;
	const settings = Object.fromEntries(
		Object.keys(sweepSettings).map((name) => [name, valueOf(sweepSettings as SettingTable, name)]),
	) as unknown as SweepSettings;
	const archiving = config.sinks.some((sink) => sink.type === 'warc');
	const headers = headersOf(
		values.headers as HeaderConfig[] | undefined,
		`pipeline: /stages/${stageOf.get('headers') ?? 0}/headers`,
		context.env ?? process.env,
	);
	const proxy = context.proxyEnv === undefined ? undefined : proxyFromEnv(context.proxyEnv);
	const options = normaliseSweepOptions(
		{
			...sweepOptionsFrom(settings),
			candidates: values.candidates === true,
			capture: archiving,
			rules: values.rules as RuleSpec[] | undefined,
			...(headers.length > 0 ? { headers } : {}),
			...(proxy && (proxy.http !== undefined || proxy.https !== undefined) ? { proxy } : {}),
		},
		context.env ?? process.env,
	);
	const fetching = stages.some((stage) => stage.use === 'fetch');
	const filterStage = stages.find((stage): stage is Extract<StageConfig, { use: 'filter' }> => stage.use === 'filter');
	return {
		store: storeOf(config),
		options,
		crawl: fetching
			? crawlOptions(options, {
					concurrency: valueOf(crawlSettings, 'fetch-concurrency') as number,
					perHost: valueOf(crawlSettings, 'fetch-per-host') as number,
				})
			: undefined,
		filter: filterStage && { include: filterStage.include, exclude: filterStage.exclude, sameHost: filterStage.sameHost },
		source: Array.isArray(config.source)
			? sources(config.source.map(sourceFrom))
			: sourceFrom(config.source as Exclude<PipelineConfig['source'], readonly unknown[]>),
		reports: reportsOf(config.sinks),
		sinks: config.sinks.map((sink, i) =>
			sinkAt(i, () =>
				sinkFrom(sink, sink.type === 'warc' ? warcInfo(options, 'run') : undefined, compileRules(options.rules ?? []), context.env ?? process.env),
			),
		),
		// Awaited at the run's start (and by `revisit check`): compiling stays synchronous.
		checks: config.sinks.flatMap((sink, i) =>
			sink.type === 'notify' ? [() => checkNotify({ ...notifyOptionsOf(sink, context.env ?? process.env), label: `pipeline: /sinks/${i}` })] : [],
		),
		watch,
	};
}

/** A sink that cannot be built (a notify URL) is a problem of the file, at the sink's path. */
function sinkAt(i: number, build: () => Sink): Sink {
	try {
		return build();
	} catch (error) {
		if (error instanceof UsageError) throw new ConfigError([`pipeline: /sinks/${i}: ${error.message}`]);
		throw error;
	}
}

type HeaderConfig = { name: string; value: string | { env: string }; match?: string | undefined };

/**
 * A pipeline's headers as header rules: each checked as -H is (revisit's own refused), a
 * value from the environment read now and marked secret; a message names the header's path.
 */
function headersOf(list: HeaderConfig[] | undefined, at: string, env: Record<string, string | undefined>): HeaderRule[] {
	return (list ?? []).map((header, i) => {
		const fromEnv = typeof header.value === 'object';
		const value = typeof header.value === 'object' ? env[header.value.env] : header.value;
		if (value === undefined) throw new ConfigError([`${at}/${i}/value: the environment variable ${(header.value as { env: string }).env} is not set`]);
		let checked: { name: string; value: string };
		try {
			checked = checkHeader(header.name, value, `${at}/${i}/name`);
		} catch (error) {
			throw new ConfigError([(error as Error).message], { cause: error });
		}
		return { ...checked, ...(header.match === undefined ? {} : { match: header.match }), ...(fromEnv ? { secret: true } : {}) };
	});
}

function storeOf(config: PipelineConfig): string | ValidatorStore | undefined {
	const store = config.store;
	if (typeof store === 'string') return store;
	if (store?.type === 'memory') return new MemoryStore();
	if (store?.type === 'redis') return store.url;
	return store?.path;
}

/**
 * The compiled pipeline as a run's shape (`composeRun`) with its sources: the sweep (or
 * a crawl, with a fetch stage) with the filter in its place, then diagnostics once, then
 * each sink in order. The commit comes after, in the run. A watch-mode pipeline is a
 * watch job instead (watch/pipeline.ts).
 *
 * @example
 * runJob({ ...pipelineShape(compiled), store: compiled.store ?? '.revisit', churnHint: 'stage' }, edges, stop)
 */
export function pipelineShape(compiled: CompiledPipeline): RunShape & { source: Source } {
	if (compiled.watch) throw new ConfigError(['pipeline: /mode: a watch-mode pipeline is a watch, not a run: run it with revisit run FILE']);
	return {
		phase: compiled.crawl ? 'crawl' : 'sweep',
		options: compiled.crawl?.sweep ?? compiled.options,
		fetch: compiled.crawl?.fetch,
		filter: compiled.filter,
		sinks: compiled.sinks,
		checks: compiled.checks,
		reports: compiled.reports,
		source: compiled.source,
	};
}
