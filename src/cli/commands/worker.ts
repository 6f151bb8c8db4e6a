import { runWorker } from '../../net/transports/fleet/worker.js';
import { integerValue } from '../../config/values.js';
import { isRedisSpec, parseRedisUrl } from '../../store/redis/url.js';
import { UsageError } from '../../base/errors/index.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption } from '../shared/store-option.js';

const EPILOG = `A worker takes requests from the runs that \`revisit sweep --workers\` coordinates on the
same Redis, sends them with each run's own settings (user agent, timeout, limits), and
hands the answers back. It keeps no state: start and stop workers at any time, on any
machine that reaches Redis. A worker killed mid-request loses nothing: after its lease
(the run's --lease), the request goes to another. SIGTERM or SIGINT: finish what is in
flight (up to 10 s), then exit 0. Redis lost: retried with backoff until it is back.`;

export function workerCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'worker',
		describe: 'Send the requests of `sweep --workers` runs on a Redis store (one of a fleet)',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.options({
					concurrency: {
						requiresArg: true,
						default: 32,
						coerce: integerValue('concurrency', 1),
						describe: "Requests in flight at most; the run's --per-host and --rate still hold across all workers",
					},
					id: {
						type: 'string',
						requiresArg: true,
						coerce: (value: unknown) => {
							if (Array.isArray(value) || !/^[\w.@:-]{1,100}$/.test(String(value)))
								throw new UsageError(`--id must be one name of letters, digits and . _ @ : - (got ${JSON.stringify(value)})`);
							return String(value);
						},
						describe: 'Name shown by revisit workers [default: host-pid-random]',
					},
					quiet: { type: 'boolean', alias: 'q', default: false, describe: 'No log lines on stderr' },
				})
				.example('revisit worker --store redis://cache.internal:6379/0', 'One worker; start as many as you like')
				.epilog(EPILOG),
		handler: async (args) => {
			if (!isRedisSpec(args.store)) throw new UsageError('revisit worker needs a Redis store: --store redis://host:port[/db]');
			const controller = new AbortController();
			void io.interrupted.then(() => controller.abort());
			const log = args.quiet ? undefined : (line: string) => io.stderr.write(`revisit worker: ${line}\n`);
			await runWorker(parseRedisUrl(args.store), { concurrency: args.concurrency, id: args.id, log }, controller.signal);
			result.status = 0;
		},
	});
}
