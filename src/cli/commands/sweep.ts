import { tap } from 'rxjs';
import type { Argv, CommandModule } from 'yargs';
import { EXIT } from '../../errors/index.js';
import { createValve } from '../../flow/valve.js';
import { openSweepDeps } from '../../pipelines/resources.js';
import { createSummary, countTask, formatSummary, runRecord } from '../../pipelines/summary.js';
import { runKey } from '../../store/run-key.js';
import { sweepStages } from '../../pipelines/sweep.js';
import { normaliseSweepOptions } from '../../pipelines/sweep-options.js';
import { commit } from '../../stages/commit.js';
import { emit } from '../../stages/emit.js';
import { readLines } from '../../stages/read-lines.js';
import type { CliIo } from '../io.js';
import { inputFrom } from '../io.js';
import { createTerminal, createWriter } from '../terminal.js';
import type { CommandResult } from './result.js';
import { sweepFlagOptions, sweepOptionsFrom, type SweepFlags } from './sweep-flags.js';

interface SweepArgs extends SweepFlags {
	urls: string[];
	store: string;
	ndjson: boolean;
	all: boolean;
	quiet: boolean;
}

const SWEEP_EPILOG = `How it decides, per URL (the "reason" field of --ndjson):
  new        nothing stored yet                      changed
  304        server says Not Modified                unchanged
  same-hash  200, body hash equals the stored one    unchanged
  new-body   200, body hash differs                  changed
  gone       404/410 where the URL was live before   changed once
  audit      a 304 that an unconditional re-fetch    changed
             showed to be hiding a change
  error      failed after retries; state untouched   unchanged, exit 1

Stored validators are sent back verbatim as If-None-Match / If-Modified-Since.
State is committed only after a verdict is printed: a killed run loses nothing.
Exit status: 0 all URLs judged; 1 some errors or bad input lines; 2 usage or store error;
3 the churn guard held back a host's changes.`;

export function storeOption(yargs: Argv, env: NodeJS.ProcessEnv): Argv {
	return yargs.option('store', {
		type: 'string',
		default: env.REVISIT_STORE ?? '.revisit',
		defaultDescription: '$REVISIT_STORE or ./.revisit',
		describe: 'Validator store directory (LevelDB)',
	});
}

export function sweepCommand(io: CliIo, result: CommandResult): CommandModule<object, SweepArgs> {
	return {
		command: 'sweep [urls..]',
		describe: 'Probe URLs with conditional requests and print those that changed',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.positional('urls', { type: 'string', array: true, default: [], describe: 'URLs to check; none or - reads stdin, one per line' })
				.options({
					ndjson: { type: 'boolean', default: false, describe: 'Print one JSON verdict per line instead of URLs' },
					all: { type: 'boolean', default: false, describe: 'With --ndjson, include unchanged URLs' },
					...sweepFlagOptions,
					quiet: { type: 'boolean', alias: 'q', default: false, describe: 'No progress or summary on stderr' },
				})
				.example('revisit sweep < urls.txt > changed.txt', 'Print the URLs that changed since the last sweep')
				.example('revisit sweep --ndjson --all < urls.txt | jq .', 'One verdict per URL, as JSON')
				.example('revisit sweep https://example.org/ https://example.org/about', 'URLs as arguments')
				.epilog(SWEEP_EPILOG) as unknown as Argv<SweepArgs>,
		handler: async (args) => {
			result.status = await runSweep(args, io);
		},
	};
}

async function runSweep(args: SweepArgs, io: CliIo): Promise<number> {
	const options = normaliseSweepOptions(sweepOptionsFrom(args));
	const terminal = createTerminal(io.stderr, { quiet: args.quiet });
	const { deps, close } = await openSweepDeps({ store: args.store }, options);
	const summary = createSummary();
	const started = deps.clock.now();
	const valve = createValve(options.highWater);
	deps.hooks = {
		release: () => valve.release(),
		onBlocked: (origin, changed, probed) => {
			summary.blockedHosts.push(origin);
			terminal.diagnose(`${origin}: ${changed} of its first ${probed} known URLs changed: changes held back (churn guard); check the site, then rerun with --accept-churn ${origin}`);
		},
	};
	terminal.progress(() => formatSummary({ ...summary, elapsedMs: deps.clock.now() - started }));

	const run$ = readLines(inputFrom(args.urls, io.stdin), valve).pipe(
		sweepStages(deps, options),
		emit({ out: createWriter(io.stdout), diagnose: terminal.diagnose }, { format: args.ndjson ? 'ndjson' : 'lines', all: args.all }),
		commit(deps.store, { extra: deps.book.drain }),
		tap((task) => {
			if (!task.creditReturned) valve.release();
			countTask(summary, task);
		}),
	);
	try {
		const stopped = await new Promise<string | undefined>((resolve, reject) => {
			const subscription = run$.subscribe({ error: reject, complete: () => resolve(undefined) });
			void io.interrupted.then((signal) => {
				subscription.unsubscribe();
				resolve(signal);
			});
		});
		if (stopped) {
			terminal.finish(`stopped by ${stopped}; changes not yet printed will be reported again next run`);
			return EXIT.interrupted;
		}
		summary.elapsedMs = deps.clock.now() - started;
		await deps.store.batch([{ type: 'putRun', key: runKey(started), value: runRecord(summary, started, deps.clock.now()) }]);
	} finally {
		await close();
	}
	terminal.finish(formatSummary(summary));
	if (summary.blockedHosts.length > 0) return EXIT.churnBlocked;
	return summary.errors > 0 || summary.rejected > 0 ? EXIT.someFailed : EXIT.ok;
}
