import type { PipelineConfig } from './pipeline-config.js';
import type { Problem } from './problems.js';

/**
 * Due-stage and probe-stage options a watch has no use for, and why: its schedule
 * replaces the TTL, the adaptive interval and the budget, and its rate is its own (the
 * options `revisit watch` has no flag for).
 */
const NOT_IN_A_WATCH: Record<string, string> = {
	ttl: "a watch's schedule decides when each URL is checked again (watch.rate): remove ttl",
	adaptive: "a watch's schedule is always adaptive, each URL checked when a check of it is worth most: remove adaptive",
	budget: 'a watch spends watch.rate, not a budget per run: remove budget',
	hostBudget: "a watch spends watch.rate, not a budget per run (an origin's own pace is watch.hostRate): remove hostBudget",
	rate: "in a watch, an origin's request rate is watch.hostRate (watch.rate is the checks over every origin): move it there",
	localWorkers: 'a watch sends its requests from the main thread: remove localWorkers',
};

/**
 * The rules of `"mode"` and `"watch"`: watch settings only in watch mode, and in watch
 * mode only sources that can be read again (stdin, a file of lines, urls, sitemaps) and
 * no stage or option a run's end gives meaning to (the churn guard, the budget, the TTL,
 * a crawl's fetch stage and its dir sink). Each problem names its path.
 *
 * @example
 * watchProblems({ source: { type: 'command', command: 'cat urls' }, sinks: [{ type: 'stdout' }], mode: 'watch' })
 * // [{ pointer: '/source', message: 'a watch reads its sources again and again: …' }]
 */
export function watchProblems(config: PipelineConfig): Problem[] {
	if (config.mode !== 'watch')
		return config.watch === undefined
			? []
			: [{ pointer: '/watch', key: true, message: 'watch settings need "mode": "watch"; without it the pipeline runs once (mode run)' }];
	const problems: Problem[] = [];
	const many = Array.isArray(config.source);
	const sources = Array.isArray(config.source) ? config.source : [config.source];
	sources.forEach((source, i) => {
		const pointer = many ? `/source/${i}` : '/source';
		if (source.type === 'command')
			problems.push({
				pointer,
				message:
					'a watch reads its sources again and again, and a command source is read once: ' +
					'write its URLs to a file source (read again when it changes), or pipe them in on stdin',
			});
		if (source.type === 'file' && (source.format ?? (source.path.toLowerCase().endsWith('.json') ? 'json' : 'lines')) === 'json') {
			problems.push({
				pointer,
				message:
					'a watch reads a file source one URL per line (read again when it changes); a JSON array of URLs is not read in a watch: ' +
					'write the file one URL per line, with "format": "lines" if its name ends in .json',
			});
		}
	});
	(config.stages ?? []).forEach((stage, i) => {
		if (stage.use === 'churn-guard')
			problems.push({ pointer: `/stages/${i}`, message: 'a watch has no churn guard: no run ends to release what it would hold back; remove the stage' });
		if (stage.use === 'fetch') problems.push({ pointer: `/stages/${i}`, message: 'a watch checks URLs, it does not crawl: remove the fetch stage' });
		for (const key of Object.keys(stage)) {
			if (key in NOT_IN_A_WATCH && (key !== 'localWorkers' || (stage as { localWorkers?: number }).localWorkers !== 0))
				problems.push({ pointer: `/stages/${i}/${key}`, key: true, message: NOT_IN_A_WATCH[key]! });
		}
	});
	config.sinks.forEach((sink, i) => {
		if (sink.type === 'dir')
			problems.push({
				pointer: `/sinks/${i}`,
				message: 'a dir sink keeps the bodies a fetch stage downloads, and a watch has none: use a warc sink to keep what the checks read',
			});
	});
	return problems;
}
