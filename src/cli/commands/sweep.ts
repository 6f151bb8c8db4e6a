import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../base/errors/index.js';
import { fleetRun } from '../../pipelines/fleet.js';
import { normaliseSweepOptions } from '../../pipelines/normalise-options.js';
import { sweepOptionsFrom } from '../../pipelines/options-from-settings.js';
import { crawlRunFlagOptions } from '../flags/crawl.js';
import { feedsFrom } from '../flags/feeds.js';
import { fleetFlagOptions, fleetFrom } from '../flags/fleet.js';
import { rulesFrom } from '../flags/rules.js';
import { renamedFlags } from '../flags/setting.js';
import { sweepSettings } from '../../config/settings.js';
import { accessFrom } from '../flags/access.js';
import { warcFrom } from '../flags/warc.js';
import { GROUP, groupedFlags, quietFlag, type ArgvOf } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import { runPipeline } from '../run-pipeline.js';
import { runCrawl } from './crawl.js';
import type { CommandResult } from '../shared/result.js';
import { storeFlag } from '../shared/store-option.js';

const SWEEP_EPILOG = `How it decides, per URL (the "reason" field of --ndjson):
  new        nothing stored yet                      changed
  304        server says Not Modified                unchanged
  same-hash  200, body hash equals the stored one    unchanged
  new-body   200, body hash differs                  changed
  gone       404/410 where the URL was live before   changed once
  audit      a 304 that an unconditional re-fetch    changed
             showed to be hiding a change (a sample,
             --audit, and every URL once per
             --verify-every: no change hides longer)
  candidate  (--candidates) it may have changed:     changed, not committed
             a 200 where a 304 was hoped for
  error      failed after retries; state untouched   unchanged, exit 1
  price      (--product) the offer's price moved     changed
  availability  (--product) its availability moved, changed
             not its price
  unmet      (--when) changed, but the condition     unchanged: the new
             did not hold                            baseline, silently
  (more reasons, such as same-content for content rules: README's table)

Stored validators are sent back verbatim as If-None-Match / If-Modified-Since, in the
form each host is measured to honour (revisit stats shows it).
State is committed only after a verdict is printed: a killed run loses nothing.
Exit status: 0 all URLs judged; 1 some errors or bad input lines; 2 usage or store error;
3 the churn guard held back a host's changes.`;

/** The sweep's positionals and flags, from which its handler's arguments are typed. */
function sweepBuilder(yargs: Argv, io: CliIo) {
	return groupedFlags(yargs.positional('urls', { type: 'string', array: true, default: [], describe: 'URLs to check; none or - reads stdin, one per line' }), {
		store: { ...storeFlag(io.env), group: GROUP.io },
		ndjson: { group: GROUP.io, type: 'boolean', default: false, describe: 'Print one JSON verdict per line instead of URLs' },
		all: { group: GROUP.io, type: 'boolean', default: false, describe: 'With --ndjson, include unchanged URLs' },
		candidates: {
			group: GROUP.io,
			type: 'boolean',
			default: false,
			describe: 'Never download a body: print the URLs that may have changed, for revisit fetch',
		},
		fetch: {
			group: GROUP.io,
			type: 'string',
			requiresArg: true,
			describe: 'Crawl: fetch the changed bodies into this directory in the same run (as revisit crawl --out DIR)',
		},
		quiet: quietFlag,
		...crawlRunFlagOptions,
		...fleetFlagOptions,
	})
		.example('revisit sweep < urls.txt > changed.txt', 'Print the URLs that changed since the last sweep')
		.example('revisit sweep --ndjson --all < urls.txt | jq .', 'One verdict per URL, as JSON')
		.example('revisit sweep https://example.org/ https://example.org/about', 'URLs as arguments')
		.example('revisit sweep --candidates < urls.txt | revisit fetch --out pages/', 'Two phases: a cheap wide sweep, an expensive narrow fetch')
		.example(
			"revisit sweep --product --when 'price < 40 or (in_stock and not was_in_stock)' < products.txt",
			'Shop pages: report a price under 40 or a restock, read from their structured data',
		)
		.example(
			'revisit sweep --notify "mailtos://me:$SMTP_PASSWORD@smtp.example.org?to=me@example.org" < urls.txt',
			'Mail each change (the password from the environment; never shown in messages)',
		)
		.epilog(SWEEP_EPILOG);
}

type SweepArgs = ArgvOf<ReturnType<typeof sweepBuilder>>;

export function sweepCommand(io: CliIo, result: CommandResult): CommandModule<object, SweepArgs> {
	return {
		command: 'sweep [urls..]',
		describe: 'Probe URLs with conditional requests and print those that changed',
		builder: (yargs) => sweepBuilder(yargs, io),
		handler: async (args) => {
			result.status = await runSweep(args, io);
		},
	};
}

async function runSweep(args: SweepArgs, io: CliIo): Promise<number> {
	if (args.warc !== undefined && args.candidates)
		throw new UsageError('--warc needs bodies, and --candidates never reads one: archive in the fetch (revisit fetch --warc FILE)');
	renamedFlags(args as unknown as Record<string, unknown>, sweepSettings, 'sweep', io.stderr);
	const options = normaliseSweepOptions(
		{
			...sweepOptionsFrom(args),
			...accessFrom(args, io.env),
			candidates: args.candidates,
			rules: await rulesFrom(args),
			learnNoise: args['learn-noise'],
			capture: args.warc !== undefined,
		},
		io.env,
	);
	if (args.workers && (args.cookies !== undefined || args['cookie-jar'] !== undefined)) {
		throw new UsageError('--cookies and --cookie-jar need the requests sent from this process: they cannot be used with --workers or --local-workers');
	}
	const fleet = await fleetRun(args.store, fleetFrom(args), options);
	if (args.fetch !== undefined) return runCrawl(io, { ...args, out: args.fetch }, fleet.options, fleet.transport);
	return runPipeline(
		io,
		{
			phase: 'sweep',
			options: fleet.options,
			urls: args.urls,
			store: args.store,
			transport: fleet.transport,
			redis: { reconnectWindowMs: args['redis-timeout'] },
			warc: warcFrom(args, 'sweep'),
			emit: { format: args.ndjson ? 'ndjson' : 'lines', all: args.all },
			feeds: feedsFrom(args, io.env),
		},
		{ quiet: args.quiet },
	);
}
