import { tap } from 'rxjs';
import type { Argv, CommandModule } from 'yargs';
import { EXIT } from '../../errors/index.js';
import { createValve } from '../../flow/valve.js';
import { openSweepDeps } from '../../pipelines/resources.js';
import { createSummary, countTask, formatSummary } from '../../pipelines/summary.js';
import { sweepStages } from '../../pipelines/sweep.js';
import { normaliseSweepOptions, sweepDefaults } from '../../pipelines/sweep-options.js';
import { commit } from '../../stages/commit.js';
import { emit } from '../../stages/emit.js';
import { readLines } from '../../stages/read-lines.js';
import type { MethodOption } from '../../stages/probe.js';
import { headerFlag, integerFlag, numberFlag, rateFlag } from '../args.js';
import type { CliIo } from '../io.js';
import { inputFrom } from '../io.js';
import { createTerminal, createWriter } from '../terminal.js';
import type { CommandResult } from './result.js';

interface SweepArgs {
	urls: string[];
	store: string;
	ndjson: boolean;
	all: boolean;
	concurrency: number;
	'per-host': number;
	rate?: number;
	'accept-encoding': string;
	'user-agent': string;
	timeout: number;
	retries: number;
	'max-retry-after': number;
	quiet: boolean;
	method: MethodOption;
	audit: number;
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
Exit status: 0 all URLs judged; 1 some errors or bad input lines; 2 usage or store error.`;

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
					concurrency: { requiresArg: true, default: sweepDefaults.concurrency, coerce: integerFlag('concurrency', 1), describe: 'Requests in flight in total' },
					'per-host': { requiresArg: true, default: sweepDefaults.perHost, coerce: integerFlag('per-host', 1), describe: 'Requests in flight per origin' },
					rate: { requiresArg: true, coerce: numberFlag('rate'), describe: 'Requests per second per origin [default: unlimited]' },
					'accept-encoding': { type: 'string', default: sweepDefaults.acceptEncoding, coerce: headerFlag('accept-encoding'), describe: 'Accept-Encoding for the whole run (keeps ETags comparable)' },
					'user-agent': { type: 'string', default: sweepDefaults.userAgent, coerce: headerFlag('user-agent'), describe: 'User-Agent header' },
					timeout: { requiresArg: true, default: sweepDefaults.timeoutMs / 1000, coerce: numberFlag('timeout'), describe: 'Seconds allowed for one attempt' },
					retries: { requiresArg: true, default: sweepDefaults.retries, coerce: integerFlag('retries', 0), describe: 'Retries on network errors, 5xx and 429' },
					'max-retry-after': { requiresArg: true, default: sweepDefaults.maxRetryAfterMs / 1000, coerce: integerFlag('max-retry-after', 0), describe: 'Longest Retry-After (seconds) to wait for; longer is an error' },
					method: { choices: ['get', 'head', 'auto'] as const, default: sweepDefaults.method, describe: 'get; head (then GET if it may have changed); auto (HEAD per host where a sample agrees with GET)' },
					audit: { requiresArg: true, default: sweepDefaults.trust.auditRate, coerce: rateFlag('audit'), describe: 'Fraction of conditional probes re-fetched unconditionally to catch lying 304s' },
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
	const options = normaliseSweepOptions({
		concurrency: args.concurrency,
		perHost: args['per-host'],
		rate: args.rate,
		acceptEncoding: args['accept-encoding'],
		userAgent: args['user-agent'],
		timeoutMs: Math.round(args.timeout * 1000),
		retries: args.retries,
		maxRetryAfterMs: args['max-retry-after'] * 1000,
		method: args.method,
		trust: { auditRate: args.audit },
	});
	const terminal = createTerminal(io.stderr, { quiet: args.quiet });
	const { deps, close } = await openSweepDeps({ store: args.store }, options);
	const summary = createSummary();
	const started = deps.clock.now();
	const valve = createValve(options.highWater);
	terminal.progress(() => formatSummary({ ...summary, elapsedMs: deps.clock.now() - started }));

	const run$ = readLines(inputFrom(args.urls, io.stdin), valve).pipe(
		sweepStages(deps, options),
		emit({ out: createWriter(io.stdout), diagnose: terminal.diagnose }, { format: args.ndjson ? 'ndjson' : 'lines', all: args.all }),
		commit(deps.store, { extra: deps.book.drain }),
		tap((task) => {
			valve.release();
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
	} finally {
		await close();
	}
	summary.elapsedMs = deps.clock.now() - started;
	terminal.finish(formatSummary(summary));
	return summary.errors > 0 || summary.rejected > 0 ? EXIT.someFailed : EXIT.ok;
}
