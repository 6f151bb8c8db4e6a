import type { PipelineConfig, SourceConfig } from '../config/pipeline-config.js';
import { ConfigError } from '../base/errors/index.js';
import type { CompiledPipeline } from '../pipelines/config.js';
import { checkOptionsOf } from '../pipelines/sweep-options.js';
import type { ValidatorStore } from '../store/model/types.js';
import { buildWatch } from './build.js';
import type { WatchJob } from './job.js';

/**
 * A compiled watch-mode pipeline (`"mode": "watch"`) as the job `revisit watch` would
 * build from the same settings (`buildWatch`): `urls` sources are its URL arguments,
 * `stdin` its stdin, `file` sources its `--input` files (read again when they change),
 * `sitemap` sources its `--sitemap`s (read again every `sitemapEvery`); every sink comes
 * through the run's shape, `report` sinks are written after each epoch. Validation has
 * refused what a watch can't read (command sources, JSON-array files). `context.now`
 * starts the schedule's clock when the due stage's `now` does not ($REVISIT_NOW, as the flag).
 *
 * @example
 * const job = pipelineWatch(config, compilePipeline(config), { store: '.revisit' });
 */
export function pipelineWatch(
	config: PipelineConfig,
	compiled: CompiledPipeline,
	context: { store: string | ValidatorStore; now?: number | undefined },
): WatchJob {
	const watch = compiled.watch;
	if (!watch) throw new ConfigError(['pipeline: /mode: this pipeline runs once; a watch needs "mode": "watch"']);
	return buildWatch(
		{
			options: { ...checkOptionsOf(compiled.options), now: compiled.options.now ?? context.now },
			watch,
			outputs: { filter: compiled.filter, sinks: compiled.sinks, checks: compiled.checks, reports: compiled.reports },
			store: context.store,
			inputs: inputsOf(config.source),
		},
		'pipeline',
	);
}

/** The sources as a watch's inputs. */
function inputsOf(source: PipelineConfig['source']): Omit<WatchJob['inputs'], 'sitemapEveryMs'> {
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
