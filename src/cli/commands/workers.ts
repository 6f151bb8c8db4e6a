import { fleetStatus } from '../../net/transports/fleet/status.js';
import { isRedisSpec, parseRedisUrl } from '../../store/redis/url.js';
import { UsageError } from '../../base/errors/index.js';
import { formatTable } from '../../base/util/table.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption } from '../shared/store-option.js';
import { safeJson } from '../../base/util/visible.js';

const age = (since: number) => `${Math.round((Date.now() - since) / 1000)}s`;

export function workersCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'workers',
		describe: 'Show the live workers on a Redis store and the runs in progress',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.options({ json: { type: 'boolean', default: false, describe: 'One JSON object per worker and per run, one per line' } })
				.example('revisit workers --store redis://cache.internal:6379/0', 'Who is working, on what'),
		handler: async (args) => {
			if (!isRedisSpec(args.store)) throw new UsageError('revisit workers needs a Redis store: --store redis://host:port[/db]');
			const { workers, runs } = await fleetStatus(parseRedisUrl(args.store));
			if (args.json) {
				for (const worker of workers) io.stdout.write(`${safeJson({ type: 'worker', ...worker })}\n`);
				for (const run of runs) io.stdout.write(`${safeJson({ type: 'run', ...run })}\n`);
			} else {
				io.stdout.write(
					formatTable(
						['WORKER', 'HOST', 'PID', 'IN FLIGHT', 'CAPACITY', 'DONE', 'REFUSED', 'UP'],
						workers.map((w) => [w.id, w.host, String(w.pid), String(w.inFlight), String(w.capacity), String(w.done), String(w.refused), age(w.started)]),
					),
				);
				if (runs.length > 0)
					io.stdout.write(
						'\n' +
							formatTable(
								['RUN', 'COORDINATOR', 'SENT', 'ANSWERED', 'UP'],
								runs.map((r) => [
									r.run,
									`${r.coordinator?.host ?? '?'}:${r.coordinator?.pid ?? '?'}`,
									String(r.issued),
									String(r.answered),
									r.coordinator ? age(r.coordinator.started) : '-',
								]),
							),
					);
			}
			result.status = 0;
		},
	});
}
