import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../base/errors/index.js';
import { fetchDefaults, fetchOptions } from '../../pipelines/fetch.js';
import { sweepOptionsFrom } from '../../pipelines/options-from-settings.js';
import { accessFlagOptions, accessFrom } from '../flags/access.js';
import { warcFlagOptions, warcFrom } from '../flags/warc.js';
import { diffFlagOption, refuseLearnNoise, ruleFlagOptions, rulesFrom } from '../flags/rules.js';
import { feedFlagOptions, feedsFrom } from '../flags/feeds.js';
import { sweepFlagOptions } from '../flags/sweep.js';
import { renamedFlags } from '../flags/setting.js';
import { sweepSettings } from '../../config/settings.js';
import { GROUP, groupedFlags, quietFlag, type ArgvOf } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import { runPipeline } from '../run-pipeline.js';
import type { CommandResult } from '../shared/result.js';
import { storeFlag } from '../shared/store-option.js';

// A fetch downloads every body: there is no 304 to audit or verify.
const { method: _method, audit: _audit, 'verify-every': _verify, ...fetchFlagOptions } = sweepFlagOptions;

/** The fetch's positionals and flags, from which its handler's arguments are typed. */
function fetchBuilder(yargs: Argv, io: CliIo) {
	return groupedFlags(yargs.positional('urls', { type: 'string', array: true, default: [], describe: 'URLs; none or - reads stdin' }), {
		store: { ...storeFlag(io.env), group: GROUP.io },
		out: {
			group: GROUP.io,
			type: 'string',
			requiresArg: true,
			describe: 'Directory for bodies (a folder per host, stable safe names) and index.ndjson; changed URLs go to stdout',
		},
		ndjson: { group: GROUP.io, type: 'boolean', default: false, describe: 'One object per URL on stdout, with the body (encoding: utf8 or base64)' },
		diff: diffFlagOption,
		quiet: quietFlag,
		...ruleFlagOptions,
		...fetchFlagOptions,
		concurrency: { ...fetchFlagOptions.concurrency, default: fetchDefaults.concurrency },
		'per-host': { ...fetchFlagOptions['per-host'], default: fetchDefaults.perHost },
		...accessFlagOptions,
		...warcFlagOptions,
		...feedFlagOptions,
	})
		.example('revisit sweep --candidates < urls.txt | revisit fetch --out pages/', 'Fetch only what may have changed')
		.example('revisit fetch --ndjson https://example.org/ | jq -r .body', 'Bodies as JSON');
}

type FetchArgs = ArgvOf<ReturnType<typeof fetchBuilder>>;

/**
 * `revisit fetch`: download each URL with GET, hash it against the store, write the
 * body out (a directory with an index, or NDJSON on stdout), and only then commit.
 */
export function fetchCommand(io: CliIo, result: CommandResult): CommandModule<object, FetchArgs> {
	return {
		command: 'fetch [urls..]',
		describe: "Download URLs (e.g. a sweep's candidates), write their bodies, and record them",
		builder: (yargs) => fetchBuilder(yargs, io),
		handler: async (args) => {
			if ((args.out === undefined) === !args.ndjson) throw new UsageError('revisit fetch needs exactly one of --out DIR or --ndjson');
			refuseLearnNoise(args);
			renamedFlags(args as unknown as Record<string, unknown>, sweepSettings, 'fetch', io.stderr);
			if (args.diff && args.out === undefined) throw new UsageError('--diff needs --out DIR: the previous versions are the bodies there');
			const options = fetchOptions(
				{ ...sweepOptionsFrom(args), ...accessFrom(args, io.env), rules: await rulesFrom(args), capture: args.warc !== undefined },
				io.env,
			);
			const out = args.out;
			result.status = await runPipeline(
				io,
				{
					phase: 'fetch',
					options,
					urls: args.urls,
					store: args.store,
					waitForStore: true,
					warc: warcFrom(args, 'fetch'),
					// With --out, changed URLs are printed once their bodies are written; with --ndjson the bodies are the output.
					...(out !== undefined ? { bodies: { dir: out, diff: args.diff }, emit: { format: 'lines' }, feeds: feedsFrom(args, io.env) } : { bodies: 'ndjson' }),
				},
				{ quiet: args.quiet },
			);
		},
	};
}
