import type { PipelineConfig, SourceConfig } from '../config/pipeline-config.js';
import { ConfigError } from '../base/errors/index.js';
import type { CompiledPipeline } from '../pipelines/config.js';
import { WATCH_INTERVALS } from '../domain/schedule/due-time.js';
import type { ValidatorStore } from '../store/model/types.js';
import type { WatchInputsSpec } from './inputs.js';
import type { WatchJob } from './job.js';
import type { ListenAddress } from './listen.js';

/** A watch-mode pipeline as a watch: the job less what the process gives it (its inputs' edges, the listening server). */
export interface PipelineWatch {
	job: Omit<WatchJob, 'inputs' | 'observe'>;
	/** Its sources as `watchInputs` reads them; `stdin` says whether to read the process's. */
	inputs: Omit<WatchInputsSpec, 'stdin'> & { stdin: boolean };
	listen?: ListenAddress | undefined;
	/** More names the listening server answers to (`listenHost`). */
	listenHosts: string[];
}

/**
 * A compiled watch-mode pipeline (`"mode": "watch"`) as the job `revisit watch` would
 * build from the same settings: `urls` sources are its URL arguments, `stdin` its stdin,
 * `file` sources its `--input` files (read again when they change), `sitemap` sources
 * its `--sitemap`s (read again every `sitemapEvery`); every sink comes through the
 * run's shape, `report` sinks are written after each epoch. Validation has refused what
 * a watch can't read (command sources, JSON-array files). `context.now` starts the
 * schedule's clock when the due stage's `now` does not ($REVISIT_NOW, as the flag).
 *
 * @example
 * const { job, inputs, listen, listenHosts } = pipelineWatch(config, compilePipeline(config), { store: '.revisit' });
 */
export function pipelineWatch(config: PipelineConfig, compiled: CompiledPipeline, context: { store: string | ValidatorStore; now?: number | undefined }): PipelineWatch {
	const watch = compiled.watch;
	if (!watch) throw new ConfigError(['pipeline: /mode: this pipeline runs once; a watch needs "mode": "watch"']);
	if (watch.listenHosts.length > 0 && !watch.listen) throw new ConfigError(['pipeline: /watch/listenHost: names what listen answers to; it needs /watch/listen']);
	const now = compiled.options.now ?? context.now;
	const options = { ...compiled.options, now };
	return {
		job: {
			shape: { phase: 'watch', options, filter: compiled.filter, sinks: compiled.sinks, checks: compiled.checks },
			store: context.store,
			checksPerDay: watch.checksPerDay,
			bounds: { ...WATCH_INTERVALS, minMs: options.minIntervalMs, maxMs: options.maxIntervalMs },
			now,
			scale: watch.timeScale,
			until: watch.until,
			hostGapMs: watch.hostRate === undefined ? undefined : 1000 / watch.hostRate,
			leaseMs: watch.leaseMs,
			reports: compiled.reports,
		},
		inputs: { ...inputsOf(config.source), sitemapEveryMs: watch.sitemapEveryMs },
		listen: watch.listen,
		listenHosts: watch.listenHosts,
	};
}

/** The sources as a watch's inputs. */
function inputsOf(source: PipelineConfig['source']): Omit<PipelineWatch['inputs'], 'sitemapEveryMs'> {
	const inputs = { urls: [] as string[], stdin: false, files: [] as string[], sitemaps: [] as string[] };
	for (const one of (Array.isArray(source) ? source : [source]) as SourceConfig[]) {
		if (one.type === 'urls') inputs.urls.push(...one.urls);
		else if (one.type === 'stdin') inputs.stdin = true;
		else if (one.type === 'file') inputs.files.push(one.path);
		else if (one.type === 'sitemap') inputs.sitemaps.push(one.url);
		else throw new ConfigError([`pipeline: /source: a watch can't read a ${one.type} source`]);
	}
	return inputs;
}
