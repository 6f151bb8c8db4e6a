import { UsageError } from '../base/errors/index.js';
import { WATCH_INTERVALS } from '../domain/schedule/due-time.js';
import type { RunOutputs } from '../pipelines/compose.js';
import type { CheckOptions } from '../pipelines/sweep-options.js';
import type { WatchSettings } from '../pipelines/watch-options.js';
import type { WatchJob } from './job.js';

/** What a watch is built from, as plain settings: the options it shares with a sweep, its own, what it does with its verdicts, its store and inputs. */
export interface WatchParts {
	/** Checked, defaults filled, with no run schedule (`normaliseCheckOptions`, `checkOptionsOf`). */
	options: CheckOptions;
	watch: WatchSettings;
	outputs: RunOutputs;
	store: WatchJob['store'];
	inputs: Omit<WatchJob['inputs'], 'sitemapEveryMs'>;
}

/**
 * How the entry point names its settings in a message: `flags` for `revisit watch`
 * (`--listen-host`), `pipeline` for a watch-mode pipeline file (`/watch/listenHost`).
 */
export type SettingNames = 'flags' | 'pipeline';

/**
 * The one way to a watch job, for `revisit watch` and a watch-mode pipeline file alike:
 * the options (the shared parts, with the watch's own and its per-origin rate), the
 * least gap between two requests to an origin, the interval bounds, and the check that
 * `listenHost` comes with `listen`, which throws a `UsageError` (exit 2) worded in the
 * entry point's names.
 *
 * @example
 * buildWatch(
 * 	{
 * 		options: normaliseCheckOptions(),
 * 		watch,
 * 		outputs: { emit: { format: 'lines' } },
 * 		store: '.revisit',
 * 		inputs: { urls: [], stdin: true, files: [], sitemaps: [] },
 * 	},
 * 	'flags',
 * )
 */
export function buildWatch(parts: WatchParts, names: SettingNames): WatchJob {
	const { watch } = parts;
	if (watch.listenHosts.length > 0 && watch.listen === undefined) {
		throw names === 'flags'
			? new UsageError('--listen-host names what --listen answers to: it needs --listen HOST:PORT')
			: new UsageError('pipeline: /watch/listenHost: names what listen answers to; it needs /watch/listen', { help: false });
	}
	const options = { ...parts.options, ...watch };
	return {
		shape: { ...parts.outputs, phase: 'watch', options },
		store: parts.store,
		inputs: { ...parts.inputs, sitemapEveryMs: watch.sitemapEveryMs },
		hostGapMs: watch.rate === undefined ? undefined : 1000 / watch.rate,
		bounds: { ...WATCH_INTERVALS, minMs: options.minIntervalMs, maxMs: options.maxIntervalMs },
	};
}
