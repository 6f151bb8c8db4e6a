import { matchesHost } from '../../net/hosts/stats.js';
import type { RunRecord } from '../../store/model/types.js';

interface Sample {
	labels?: Record<string, string>;
	value: number;
}

interface Family {
	name: string;
	help: string;
	samples: Sample[];
}

/** A label value as the exposition format wants it: backslash, double quote and newline escaped. */
export function escapeLabelValue(value: string): string {
	return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

/** A sample value: JavaScript's shortest exact form (which Prometheus parses), NaN/±Inf spelt as Prometheus does. */
export function formatValue(value: number): string {
	if (Number.isNaN(value)) return 'NaN';
	if (value === Infinity) return '+Inf';
	if (value === -Infinity) return '-Inf';
	return String(value);
}

function renderFamily(family: Family): string {
	const lines = [`# HELP ${family.name} ${family.help.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}`, `# TYPE ${family.name} gauge`];
	for (const sample of family.samples) {
		const labels = Object.entries(sample.labels ?? {});
		const labelText = labels.length === 0 ? '' : `{${labels.map(([key, value]) => `${key}="${escapeLabelValue(value)}"`).join(',')}}`;
		lines.push(`${family.name}${labelText} ${formatValue(sample.value)}`);
	}
	return lines.join('\n');
}

/**
 * The figures of one run (the last one) in the Prometheus text exposition format, for
 * the node_exporter textfile collector. Every metric is a gauge named `revisit_last_run_*`;
 * per-host ones carry `host="<origin>"`, and with `host` only origins matching it are
 * included. A host's 304 ratio is left out when it was sent no conditional request.
 *
 * @example
 * formatMetrics(lastRun) // '# HELP revisit_last_run_changed ...\n# TYPE revisit_last_run_changed gauge\nrevisit_last_run_changed 3\n...'
 */
export function formatMetrics(run: RunRecord, options: { host?: string | undefined } = {}): string {
	const hosts = Object.entries(run.hosts ?? {})
		.filter(([origin]) => options.host === undefined || matchesHost(origin, options.host))
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	const single = (name: string, help: string, value: number): Family => ({ name: `revisit_last_run_${name}`, help, samples: [{ value }] });
	const perHost = (name: string, help: string, pick: (figures: RunRecord['hosts'][string]) => number | undefined): Family => ({
		name: `revisit_last_run_${name}`,
		help,
		samples: hosts.flatMap(([origin, figures]) => {
			const value = pick(figures);
			return value === undefined ? [] : [{ labels: { host: origin }, value }];
		}),
	});
	const families: Family[] = [
		single('timestamp_seconds', 'Unix time at which the last revisit sweep ended.', run.endedAt / 1000),
		single('duration_seconds', 'How long the last revisit sweep took, in seconds.', (run.endedAt - run.startedAt) / 1000),
		single('urls', 'URLs that got a verdict in the last sweep.', run.urls),
		single('changed', 'URLs reported changed in the last sweep.', run.changed),
		single('not_modified', 'URLs answered 304 Not Modified in the last sweep.', run.notModified),
		single('same_hash', 'URLs re-downloaded whose body hash had not changed in the last sweep.', run.sameHash),
		single(
			'same_content',
			'URLs re-downloaded whose bytes changed but whose counted content (content rules) did not, in the last sweep.',
			run.sameContent ?? 0,
		),
		single('rebaseline', 'URLs whose content rule changed, their content taken as the new baseline, in the last sweep.', run.rebaseline ?? 0),
		single('errors', 'URLs that ended in error in the last sweep.', run.errors),
		single('deferred', 'URLs not checked in the last sweep because robots.txt deferred them (unreachable, or a Crawl-delay over the cap).', run.deferred ?? 0),
		single('robots_unreachable', 'URLs not checked in the last sweep because their robots.txt could not be had (a failure).', run.unreachable ?? 0),
		single('not_due', 'URLs skipped as not due in the last sweep.', run.notDue ?? 0),
		single('bytes_received', 'Body bytes received in the last sweep.', run.bytes),
		single('bytes_full', 'Body bytes a full download of every URL would have cost in the last sweep (estimate).', run.fullBytes),
		single('bytes_saved', 'Body bytes that 304 answers spared in the last sweep (estimate).', Math.max(0, run.fullBytes - run.bytes)),
		single('blocked_hosts', 'Hosts whose changes the churn guard held back in the last sweep.', (run.blockedHosts ?? []).length),
		perHost('host_urls', 'URLs of this origin that got a verdict in the last sweep.', (figures) => figures.urls),
		perHost('host_changed', 'URLs of this origin reported changed in the last sweep.', (figures) => figures.changed),
		perHost('host_conditional_requests', 'Requests to this origin that carried validators in the last sweep.', (figures) => figures.conditional),
		perHost('host_not_modified', '304 answers from this origin in the last sweep.', (figures) => figures.notModified),
		perHost('not_modified_ratio', '304 answers per conditional request to this origin in the last sweep (0 to 1); absent when none was sent.', (figures) =>
			figures.conditional > 0 ? figures.notModified / figures.conditional : undefined,
		),
	];
	return `${families
		.filter((family) => family.samples.length > 0)
		.map(renderFamily)
		.join('\n')}\n`;
}
