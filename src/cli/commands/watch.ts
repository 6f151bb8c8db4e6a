import type { Argv, CommandModule } from 'yargs';
import { watchSettings } from '../../config/settings.js';
import { normaliseCheckOptions } from '../../pipelines/normalise-options.js';
import { checkOptionsFrom } from '../../pipelines/options-from-settings.js';
import { watchSettingsFrom } from '../../pipelines/watch-options.js';
import { buildWatch } from '../../watch/build.js';
import { accessFlagOptions, accessFrom } from '../flags/access.js';
import { feedFlagOptions, feedsFrom } from '../flags/feeds.js';
import { GROUP, groupedFlags, quietFlag, repeatable, type ArgvOf, type Flag } from '../flags/groups.js';
import { ruleFlagOptions, rulesFrom } from '../flags/rules.js';
import { flagOf } from '../flags/setting.js';
import { sweepFlagOptions } from '../flags/sweep.js';
import { warcFlagOptions, warcFrom } from '../flags/warc.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeFlag } from '../shared/store-option.js';
import { runWatchOnTerminal, watchInputsFor } from '../shared/watch-parts.js';

/** The sweep flags a watch has no use for: its schedule replaces the TTL, the budget and the churn guard; `--rate` and `--host-rate` are its own. */
const NOT_WATCH = ['rate', 'host-rate', 'ttl', 'adaptive', 'budget', 'host-budget', 'max-churn', 'churn-min', 'accept-churn', 'local-workers'] as const;
const sweepFlags = Object.fromEntries(Object.entries(sweepFlagOptions).filter(([name]) => !(NOT_WATCH as readonly string[]).includes(name))) as Omit<
	typeof sweepFlagOptions,
	(typeof NOT_WATCH)[number]
>;

const watchFlags = {
	input: {
		group: GROUP.io,
		...repeatable,
		default: [],
		describe: 'Read URLs from this file, and again whenever it changes or on SIGHUP; a URL it no longer lists leaves the schedule (repeatable)',
	},
	sitemap: {
		group: GROUP.io,
		...repeatable,
		default: [],
		describe: 'Read URLs from this sitemap (or sitemap index), and again every --sitemap-every (repeatable)',
	},
	'sitemap-every': { group: GROUP.io, ...flagOf(watchSettings['sitemap-every']), requiresArg: true, describe: 'How often sitemaps are read again' },
	listen: {
		group: GROUP.io,
		type: 'string',
		requiresArg: true,
		describe:
			'Serve /metrics (Prometheus), /healthz and / (the live report page) on HOST:PORT, to requests whose Host names that address (and localhost on loopback)',
	},
	'listen-host': {
		group: GROUP.io,
		...flagOf(watchSettings['listen-host']),
		...repeatable,
		describe: "Answer requests to --listen with this name in their Host header too: a reverse proxy's, the name Prometheus scrapes by (repeatable)",
	},
	rate: {
		group: GROUP.schedule,
		...flagOf(watchSettings.rate),
		type: 'string',
		requiresArg: true,
		describe:
			'Checks over every origin, spread evenly: 20/s, 300/min, 5000/h, ' +
			'100000/d. Each URL is checked when a check of it is worth most, so that the rate is spent where pages change',
	},
	'host-rate': {
		group: GROUP.politeness,
		...flagOf(watchSettings['host-rate']),
		requiresArg: true,
		describe: 'Requests per second per origin [default: unlimited; robots.txt Crawl-delay always holds]',
	},
	until: {
		group: GROUP.schedule,
		...flagOf(watchSettings.until),
		requiresArg: true,
		describe: 'Stop at this time (ISO 8601 or epoch ms), or after this long (12h, 30d) [default: run until SIGTERM or SIGINT]',
	},
	lease: {
		group: GROUP.scale,
		...flagOf(watchSettings.lease),
		requiresArg: true,
		describe:
			'How long a claimed URL is held (wall time) before it returns to the schedule: a watch killed mid-check loses nothing, ' +
			'and on Redis the others check it then. Keep it well above --timeout × (--retries + 1)',
	},
	'status-every': {
		group: GROUP.io,
		...flagOf(watchSettings['status-every']),
		type: 'string',
		requiresArg: true,
		describe:
			'Where stderr is not a terminal (a log, the journal), write a status line this often: ' +
			'URLs watched, checks, changes, the backlog; off for none. Wall time',
	},
	'time-scale': {
		group: GROUP.schedule,
		...flagOf(watchSettings['time-scale']),
		requiresArg: true,
		describe:
			'Run the schedule this many times faster than the wall clock (for simulations and tests); ' +
			'--rate and every duration are read in its clock, politeness in wall time',
	},
} satisfies Record<string, Flag>;

const WATCH_EPILOG = `A URL is checked again when a check is worth a threshold μ: U(t) = 1/λ − (t + 1/λ)·e^(−λt)
days of freshness, for its estimated change rate λ and the time t since its last check.
μ is adjusted so that checks go out at --rate. New URLs go first and are checked again
after 1h, 2h, 4h, … while their rate is learnt; no URL waits longer than --max-interval.

Due times live in the store, not in memory: a restart (even after kill -9) loses no URL.
On Redis (--store redis://…) any number of watches share one schedule, the per-origin
limits and the rate. Each hour of the schedule is a run in revisit history and report.
While a watch holds a LevelDB store, history, report, stats, due, export and hosts set
work through it (it answers on watch.sock in the store directory), the hour under way
shown as a live row; a watch killed with -9 leaves its hours in history, unfinished.

Signals: SIGTERM or SIGINT stops after the checks in flight are committed (exit 0);
SIGHUP reads --input files and sitemaps again, and says what each found.
On stderr: what --rate means for the URLs at the start; a progress line on a terminal,
else a status line every --status-every; the summary when it stops.
Exit status: 0 stopped by a signal or at --until; 2 usage or store error.`;

/** The watch's positionals and flags, from which its handler's arguments are typed. */
function watchBuilder(yargs: Argv, io: CliIo) {
	return groupedFlags(
		yargs.positional('urls', {
			type: 'string',
			array: true,
			default: [],
			describe: 'URLs to watch; - reads stdin (stdin is read when no URL, --input or --sitemap is given)',
		}),
		{
			store: { ...storeFlag(io.env), group: GROUP.io },
			ndjson: { group: GROUP.io, type: 'boolean', default: false, describe: 'Print one JSON verdict per line instead of URLs' },
			all: { group: GROUP.io, type: 'boolean', default: false, describe: 'With --ndjson, include unchanged URLs' },
			quiet: quietFlag,
			...watchFlags,
			...ruleFlagOptions,
			...sweepFlags,
			...accessFlagOptions,
			...warcFlagOptions,
			...feedFlagOptions,
		},
	)
		.example('revisit watch --rate 5000/h < urls.txt', 'Watch a list, 5,000 checks an hour, printing the URLs that change')
		.example('revisit watch --input urls.txt --listen 127.0.0.1:9464 --atom changes.xml', 'Follow a file, serve metrics, keep a feed')
		.example('revisit watch --input urls.txt --notify ntfys://ntfy.example.org/prices', 'Push each change to an ntfy topic (and to more with --notify again)')
		.example('revisit watch --store redis://db:6379 --input urls.txt --rate 50/s', 'One of a fleet of watches sharing one schedule')
		.epilog(WATCH_EPILOG);
}

type WatchArgs = ArgvOf<ReturnType<typeof watchBuilder>>;

/** `revisit watch`: keeps a store fresh continuously, under a rate of checks. */
export function watchCommand(io: CliIo, result: CommandResult): CommandModule<object, WatchArgs> {
	return {
		command: 'watch [urls..]',
		describe: 'Keep checking URLs, each when a check is worth most, under a rate of checks; print those that changed',
		builder: (yargs) => watchBuilder(yargs, io),
		handler: async (args) => {
			result.status = await runWatchCommand(args, io);
		},
	};
}

async function runWatchCommand(args: WatchArgs, io: CliIo): Promise<number> {
	const options = normaliseCheckOptions({
		...checkOptionsFrom(args),
		...accessFrom(args, io.env),
		rules: await rulesFrom(args),
		learnNoise: args['learn-noise'],
		capture: args.warc !== undefined,
	});
	const parsed: Partial<Record<keyof typeof watchSettings, unknown>> = {
		// --rate and --listen are read as given: their checks say what they expect.
		rate: typeof args.rate === 'string' ? watchSettings.rate.parse!(args.rate) : args.rate,
		listen: args.listen === undefined ? undefined : watchSettings.listen.parse!(args.listen),
	};
	const watch = watchSettingsFrom((name) => (name in parsed ? parsed[name] : args[name]));
	const job = buildWatch(
		{
			options,
			watch,
			outputs: { warc: warcFrom(args, 'watch'), emit: { format: args.ndjson ? 'ndjson' : 'lines', all: args.all }, feeds: feedsFrom(args, io.env) },
			store: args.store,
			inputs: watchInputsFor(args),
		},
		'flags',
	);
	return runWatchOnTerminal(io, job, { quiet: args.quiet });
}
