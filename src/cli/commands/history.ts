import { writeFile } from 'node:fs/promises';
import { UsageError } from '../../base/errors/index.js';
import { renderTextCharts } from '../../outputs/history/chart.js';
import { formatMetrics } from '../../outputs/history/metrics.js';
import { writeFileAtomic } from '../../base/util/write-file-atomic.js';
import { hostRunRows, loadRuns, runPoints, runRow } from '../../outputs/history/rows.js';
import { renderSvg } from '../../outputs/history/svg.js';
import { formatHostTable, formatRunTable } from '../../outputs/history/table.js';
import { integerValue } from '../../config/values.js';
import { describeStore } from '../../store/open.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import { createWriter } from '../terminal.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';
import { safeJson } from '../../base/util/visible.js';

const HISTORY_EPILOG = `Each sweep stores one run row. Columns: TOOK run length; CHANGED URLs reported changed;
304S Not Modified answers; SAME-HASH re-downloads whose body had not changed; NOT-DUE URLs
skipped by the schedule; RECEIVED body bytes; FULL what downloading every body would have
cost; SAVED the difference; 304% 304s per conditional request; BLOCKED hosts the churn
guard held back. Times are UTC. A watch stores each hour of its schedule as a run, and
its row as the hour goes: TOOK says "live" for the hour a running watch is in (read
through the watch), "unfinished" for an hour whose watch was killed.

--metrics writes the last run (whatever --last says) for the node_exporter textfile
collector: gauges revisit_last_run_{timestamp_seconds,duration_seconds,urls,changed,
not_modified,same_hash,errors,not_due,bytes_received,bytes_full,bytes_saved,blocked_hosts},
and per host (label host="<origin>", only matching hosts with --host) host_urls,
host_changed, host_conditional_requests, host_not_modified and not_modified_ratio.
The file is replaced atomically. With --metrics or --svg alone nothing is printed.`;

/** `revisit history`: the run rows, as a table, JSON lines, charts, an SVG or Prometheus metrics. */
export function historyCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'history',
		describe: 'Show what each sweep did: changed, 304s, errors, bytes saved (table, JSON, chart, SVG, metrics)',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.options({
					json: { type: 'boolean', default: false, describe: 'One JSON object per run (per run and host with --host), one per line' },
					host: { type: 'string', requiresArg: true, describe: "Only this host's figures (an origin like https://example.org, or a hostname)" },
					last: {
						requiresArg: true,
						coerce: (value: unknown) => (value === undefined ? undefined : integerValue('last', 1)(value)),
						describe: 'Only the last N runs',
					},
					metrics: { type: 'string', requiresArg: true, describe: "Write the last run's figures to FILE in the Prometheus text format" },
					plot: { type: 'boolean', default: false, describe: 'Draw changed URLs and the 304 ratio per run as terminal charts' },
					svg: { type: 'string', requiresArg: true, describe: 'Write the same two charts to FILE as SVG' },
				})
				.example('revisit history', 'A table of every run, oldest first')
				.example('revisit history --host example.org --last 20', "One host's URLs, changes and 304 ratio in the last 20 runs")
				.example("revisit history --json | jq 'select(.errors > 0)'", 'Runs that had errors')
				.example(
					'revisit sweep -q < urls.txt; revisit history --metrics /var/lib/node_exporter/textfile/revisit.prom',
					'A cron job that exports each run to Prometheus',
				)
				.example('revisit history --plot --last 60', 'Churn and 304 ratio of the last 60 runs in the terminal')
				.example('revisit history --svg history.svg', 'The same charts as an SVG file')
				.epilog(HISTORY_EPILOG),
		handler: async (args) => {
			if (args.json && args.plot) throw new UsageError('--json and --plot cannot be combined: --plot draws charts, --json prints rows');
			if (args.host !== undefined && args.host.trim() === '') throw new UsageError('--host must name an origin or a hostname');
			for (const flag of ['metrics', 'svg'] as const) {
				if (args[flag] !== undefined && args[flag]!.trim() === '') throw new UsageError(`--${flag} must name a file`);
			}
			const runs = await withStore(args.store, { create: false, viaWatch: true }, loadRuns);
			if (runs.length === 0) {
				io.stderr.write(`revisit: no sweep runs recorded in ${describeStore(args.store)} yet\n`);
				result.status = 1;
				return;
			}
			if (args.host !== undefined && hostRunRows(runs, args.host).length === 0) {
				io.stderr.write(`revisit: no run in ${describeStore(args.store)} probed a host matching ${args.host}\n`);
				result.status = 1;
				return;
			}
			// The hour a running watch is in is not over: --metrics gives the last run that is.
			const lastRun = runs.findLast((run) => !run.live) ?? runs.at(-1)!;
			const shownRuns = args.last === undefined ? runs : runs.slice(-args.last);

			if (args.metrics !== undefined) {
				await writeOut('metrics', args.metrics, formatMetrics(lastRun, { host: args.host }), writeFileAtomic);
			}
			const points = runPoints(shownRuns, args.host);
			if (args.svg !== undefined) {
				await writeOut('svg', args.svg, renderSvg(points, { title: `revisit history${args.host === undefined ? '' : ` of ${args.host}`}` }), (file, text) =>
					writeFile(file, text),
				);
			}

			const write = createWriter(io.stdout);
			if (args.plot) {
				await write(renderTextCharts(points, { width: Math.min(120, (io.stdout as { columns?: number }).columns ?? 80) }));
			} else if (args.json || (args.metrics === undefined && args.svg === undefined)) {
				const lines = (rows: readonly object[]) => rows.map((row) => `${safeJson(row)}\n`).join('');
				if (args.host === undefined) {
					const rows = shownRuns.map(runRow);
					await write(args.json ? lines(rows) : formatRunTable(rows));
				} else {
					const rows = hostRunRows(shownRuns, args.host);
					await write(args.json ? lines(rows) : formatHostTable(rows));
				}
			}
			result.status = 0;
		},
	});
}

async function writeOut(flag: string, file: string, text: string, writer: (file: string, text: string) => Promise<void>): Promise<void> {
	try {
		await writer(file, text);
	} catch (error) {
		throw new UsageError(`--${flag}: cannot write ${file}: ${(error as Error).message}`, { cause: error });
	}
}
