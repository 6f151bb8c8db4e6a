import type { Argv, CommandModule } from 'yargs';
import { crawlOptions } from '../../pipelines/fetch.js';
import { normaliseSweepOptions } from '../../pipelines/normalise-options.js';
import { sweepOptionsFrom } from '../../pipelines/options-from-settings.js';
import type { SweepOptions } from '../../pipelines/sweep-options.js';
import type { TransportFactory } from '../../net/http/transport.js';
import { accessFrom } from '../flags/access.js';
import { warcFrom } from '../flags/warc.js';
import { diffFlagOption, refuseLearnNoise, rulesFrom } from '../flags/rules.js';
import { feedsFrom } from '../flags/feeds.js';
import { crawlRunFlagOptions } from '../flags/crawl.js';
import { renamedFlags } from '../flags/setting.js';
import { sweepSettings } from '../../config/settings.js';
import { GROUP, groupedFlags, quietFlag, type ArgvOf } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import { runPipeline } from '../run-pipeline.js';
import type { CommandResult } from '../shared/result.js';
import { storeFlag } from '../shared/store-option.js';

/**
 * Both phases in one process: a candidates sweep at the sweep's limits feeds the fetch
 * phase at its own; bodies go to `out`, changed URLs to stdout.
 */
export async function runCrawl(
	io: CliIo,
	args: Omit<CrawlArgs, 'diff'> & { diff?: boolean },
	sweepOptions: SweepOptions,
	transport?: TransportFactory,
): Promise<number> {
	const options = crawlOptions(
		{ ...sweepOptions, capture: sweepOptions.capture || args.warc !== undefined },
		{ concurrency: args['fetch-concurrency'], perHost: args['fetch-per-host'] },
	);
	return runPipeline(
		io,
		{
			phase: 'crawl',
			options: options.sweep,
			fetch: options.fetch,
			urls: args.urls,
			store: args.store,
			transport,
			warc: warcFrom(args, 'crawl'),
			bodies: { dir: args.out, diff: args.diff },
			emit: { format: 'lines' },
			feeds: feedsFrom(args, io.env),
		},
		{ quiet: args.quiet },
	);
}

/** The crawl's positionals and flags, from which its handler's arguments are typed. */
function crawlBuilder(yargs: Argv, io: CliIo) {
	return groupedFlags(yargs.positional('urls', { type: 'string', array: true, default: [], describe: 'URLs; none or - reads stdin' }), {
		store: { ...storeFlag(io.env), group: GROUP.io },
		out: { group: GROUP.io, type: 'string', demandOption: true, requiresArg: true, describe: 'Directory for bodies (a folder per host) and index.ndjson' },
		diff: diffFlagOption,
		quiet: quietFlag,
		...crawlRunFlagOptions,
	})
		.example('revisit crawl --out pages/ < urls.txt', 'Same as: revisit sweep --candidates < urls.txt | revisit fetch --out pages/')
		.example('revisit crawl --out pages/ --diff --atom changes.atom < urls.txt', 'A diff next to each changed body, and an Atom feed of the changes')
		.example('revisit crawl --out pages/ --warc crawl.warc.gz --fetch-per-host 1 < urls.txt', 'Archive the run as WARC, one download per origin at a time');
}

type CrawlArgs = ArgvOf<ReturnType<typeof crawlBuilder>>;

export function crawlCommand(io: CliIo, result: CommandResult): CommandModule<object, CrawlArgs> {
	return {
		command: 'crawl [urls..]',
		describe: 'Sweep, then fetch what changed into a directory, in one process',
		builder: (yargs) => crawlBuilder(yargs, io),
		handler: async (args) => {
			refuseLearnNoise(args);
			renamedFlags(args as unknown as Record<string, unknown>, sweepSettings, 'crawl', io.stderr);
			result.status = await runCrawl(
				io,
				args,
				normaliseSweepOptions({ ...sweepOptionsFrom(args), ...accessFrom(args, io.env), candidates: true, rules: await rulesFrom(args) }, io.env),
			);
		},
	};
}
