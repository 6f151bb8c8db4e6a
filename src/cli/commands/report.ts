import { UsageError } from '../../base/errors/index.js';
import { integerValue } from '../../config/values.js';
import { urlPagesDir, writeReport } from '../../io/report/write.js';
import { describeStore } from '../../store/open.js';
import { parseDuration } from '../../base/util/duration.js';
import { formatBytes } from '../../base/util/bytes.js';
import { counted } from '../../base/util/counted.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';

const REPORT_EPILOG = `The page is one self-contained file (inline CSS and script, no request to the network):
open it from disk or mail it. It shows the summary (URLs checked, changed, 304s, errors,
bytes received and saved), each changed URL with why (validators and hashes before and
after, audit, content rule, learned noise) and a word diff of its counted content
(inline or side by side, whitespace ignored or not), errors by code, the hosts of the
runs as revisit stats shows them, and the run history chart.
Each changed URL links to its own page, written beside it (FILE-urls/): the URL's
versions newest first (first seen, last confirmed, reason, words added and removed, the
offer) and two of them as a word diff, stepping from change to change.

A diff needs the text from before the change: a sweep keeps each page's text from its
first sight on (an HTML page without a content rule as its visible text; --diff-of source
for its markup), compressed and stored once per distinct text, up to --keep-text per page
(32KiB) and --keep-text-total in all (256MiB; past it the least recently changed go
first). --keep-text off keeps none. Changes without a diff are listed with the reason.
Each run keeps its changed and failed URLs (up to 5000 and 1000) for the last 50 runs.`;

/**
 * `--since`: a duration back from now (24h, 7d) or a date (2026-12-01, or ISO 8601 with a time).
 *
 * @example
 * sinceValue('24h', Date.now()) // Date.now() - 86_400_000
 */
export function sinceValue(text: string, now: number): number {
	const back = parseDuration(text.trim());
	if (back !== undefined) return now - back;
	const at = /^\d{4}-\d{2}-\d{2}/.test(text.trim()) ? Date.parse(text.trim()) : Number.NaN;
	if (Number.isNaN(at))
		throw new UsageError(`--since must be a duration back from now (24h, 7d) or a date (2026-12-01, 2026-12-01T08:00Z) (got ${JSON.stringify(text)})`);
	return at;
}

/** `revisit report`: an HTML page of what the last runs changed and why. */
export function reportCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'report',
		describe: 'Write an HTML page of what changed and why: summary, changed URLs with word diffs, errors, hosts, history',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.options({
					html: { type: 'string', requiresArg: true, describe: 'Write the page to FILE (self-contained: open it from disk, attach it to a mail)' },
					runs: {
						requiresArg: true,
						coerce: (value: unknown) => (value === undefined ? undefined : integerValue('runs', 1)(value)),
						describe: 'Cover the last N runs [default: the last run]',
					},
					since: { type: 'string', requiresArg: true, describe: 'Cover the runs started since then: a duration back from now (24h, 7d) or a date' },
				})
				.conflicts('runs', 'since')
				.example('revisit sweep -q < urls.txt; revisit report --html report.html', 'What the sweep just found, as a page')
				.example('revisit report --html week.html --since 7d', "A week's changes in one page")
				.epilog(REPORT_EPILOG),
		handler: async (args) => {
			if (args.html === undefined || args.html.trim() === '') throw new UsageError('revisit report needs --html FILE: where to write the page');
			const since = args.since === undefined ? undefined : sinceValue(args.since, Date.now());
			let written: Awaited<ReturnType<typeof writeReport>>;
			try {
				written = await withStore(args.store, { create: false, viaWatch: true }, (store) =>
					writeReport(store, args.html!, { runs: args.runs, since }, describeStore(args.store)),
				);
			} catch (error) {
				// A file error of the page or its URL pages is about --html; anything else (the store's) is not.
				const where = (error as NodeJS.ErrnoException).path;
				if (typeof where !== 'string' || !where.startsWith(args.html.replace(/\.html?$/i, ''))) throw error;
				throw new UsageError(`--html: cannot write ${args.html}: ${(error as Error).message}`, { cause: error });
			}
			if (!written) {
				io.stderr.write(
					`revisit: no run in ${describeStore(args.store)}${since === undefined ? '' : ` since ${new Date(since).toISOString()}`} to report on\n`,
				);
				result.status = 1;
				return;
			}
			const { summary } = written.data;
			const pages = written.urlPages === 0 ? '' : ` and ${counted(written.urlPages, 'URL page')} in ${urlPagesDir(args.html)}/`;
			io.stderr.write(
				`revisit: wrote ${args.html} (${formatBytes(Buffer.byteLength(written.page))})${pages}: ${counted(summary.runs, 'run')}, ` +
					`${counted(summary.urls, 'URL')}, ${summary.changed} changed, ${counted(summary.errors, 'error')}\n`,
			);
			result.status = 0;
		},
	});
}
