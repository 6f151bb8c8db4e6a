import type { Argv, CommandModule } from 'yargs';
import { crawl, crawlOptions } from '../../pipelines/fetch.js';
import { normaliseSweepOptions, type SweepOptions } from '../../pipelines/sweep-options.js';
import { emit } from '../../stages/emit.js';
import { writeBodies } from '../../stages/write-bodies.js';
import { pipe } from 'rxjs';
import { warcFlagOptions, type WarcFlags } from '../flags/warc.js';
import { diffFlagOption, diffFrom, refuseLearnNoise, ruleFlagOptions, rulesFrom, type RuleFlags } from '../flags/rules.js';
import { feedFlagOptions, type FeedFlags } from '../flags/feeds.js';
import { feeds } from './feeds.js';
import { warcOutput } from './warc-output.js';
import type { TransportFactory } from '../../http/transport.js';
import { crawlFlagOptions } from '../flags/crawl.js';
import type { CliIo } from '../io.js';
import { runPipeline } from '../run-pipeline.js';
import type { CommandResult } from './result.js';
import { sweepFlagOptions, type SweepFlags } from '../flags/sweep.js';
import { sweepOptionsFrom } from '../../pipelines/sweep-options.js';
import { storeOption } from './store-option.js';

interface CrawlArgs extends SweepFlags, WarcFlags, RuleFlags, FeedFlags {
	urls: string[];
	store: string;
	out: string;
	quiet: boolean;
	'fetch-concurrency': number;
	'fetch-per-host': number;
	diff?: boolean;
}

/**
 * Both phases in one process: a candidates sweep at the sweep's limits feeds the fetch
 * phase at its own; bodies go to `out`, changed URLs to stdout.
 */
export async function runCrawl(io: CliIo, args: CrawlArgs, sweepOptions: SweepOptions, transport?: TransportFactory): Promise<number> {
	const warc = warcOutput(args, sweepOptions, 'crawl');
	const options = crawlOptions(warc.options, { concurrency: args['fetch-concurrency'], perHost: args['fetch-per-host'] });
	try {
		return await runPipeline(io, {
			urls: args.urls,
			store: args.store,
			quiet: args.quiet,
			options: options.sweep,
			transport,
			build: (deps, outputs) =>
				pipe(crawl(deps, options), warc.archive, writeBodies({ type: 'dir', dir: args.out }, deps.clock, { diff: diffFrom(args.diff, options.sweep.rules) }), emit(outputs, { format: 'lines' }), feeds(args, io, { out: outputs.out, clock: deps.clock })),
		});
	} finally {
		warc.close();
	}
}

export function crawlCommand(io: CliIo, result: CommandResult): CommandModule<object, CrawlArgs> {
	return {
		command: 'crawl [urls..]',
		describe: 'Sweep, then fetch what changed into a directory, in one process',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.positional('urls', { type: 'string', array: true, default: [], describe: 'URLs; none or - reads stdin' })
				.options({
					out: { type: 'string', demandOption: true, requiresArg: true, describe: 'Directory for bodies (a folder per host) and index.ndjson' },
					...sweepFlagOptions,
					...crawlFlagOptions,
					...warcFlagOptions,
					...ruleFlagOptions,
					...feedFlagOptions,
					diff: diffFlagOption,
					quiet: { type: 'boolean', alias: 'q', default: false, describe: 'No progress or summary on stderr' },
				})
				.example('revisit crawl --out pages/ < urls.txt', 'Same as: revisit sweep --candidates < urls.txt | revisit fetch --out pages/') as unknown as Argv<CrawlArgs>,
		handler: async (args) => {
			refuseLearnNoise(args);
			result.status = await runCrawl(io, args, normaliseSweepOptions({ ...sweepOptionsFrom(args), candidates: true, rules: rulesFrom(args) }));
		},
	};
}
