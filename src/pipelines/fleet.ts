import { FleetError } from '../net/transports/fleet/errors.js';
import { fleetDefaults } from '../net/transports/fleet/options.js';
import { fleetStatus } from '../net/transports/fleet/status.js';
import { redisFleet } from '../net/transports/fleet/transport.js';
import type { TransportFactory } from '../net/http/transport.js';
import { normaliseSweepOptions } from './normalise-options.js';
import type { SweepOptions } from './sweep-options.js';
import { isRedisSpec, parseRedisUrl } from '../store/redis/url.js';
import { shownUrl } from '../base/util/shown-url.js';

/** A coordinator's fleet settings (`sweep --workers`), times in ms. */
export interface FleetRunOptions {
	workers: boolean;
	/** How long a worker may hold a request before it goes to another; default: the timeout + 10 s. */
	leaseMs?: number | undefined;
	maxDeliveries: number;
	redisTimeoutMs: number;
}

/**
 * For a run with `--workers`: checks the store is Redis and that workers are alive, and
 * returns the run's options with its concurrency set to the fleet's (the sum of the live
 * workers' own `--concurrency`) and the transport that hands requests to them.
 *
 * @example
 * const fleet = await fleetRun(args.store, args, options);
 * runJob({ ...job, options: fleet.options, transport: fleet.transport }, edges, stop);
 */
export async function fleetRun(store: string, flags: FleetRunOptions, options: SweepOptions): Promise<{ options: SweepOptions; transport?: TransportFactory }> {
	if (!flags.workers) return { options };
	if (!isRedisSpec(store))
		throw new FleetError(
			'FLEET_USAGE',
			`--workers needs a Redis store (--store redis://host:port), where workers take their requests; ${shownUrl(store)} is a LevelDB directory (for one ` +
				`machine, use --local-workers N)`,
		);
	const { workers } = await fleetStatus(parseRedisUrl(store));
	if (workers.length === 0)
		throw new FleetError('FLEET_NO_WORKERS', `no live workers on ${shownUrl(store)}: start some with revisit worker --store ${shownUrl(store)}`);
	const capacity = workers.reduce((sum, worker) => sum + worker.capacity, 0);
	const defaults = fleetDefaults(options.timeoutMs);
	// --per-host also holds across runs that share the fleet (net/transports/fleet/permits.ts).
	const fleet = {
		...defaults,
		...(flags.leaseMs ? { leaseMs: flags.leaseMs } : {}),
		maxDeliveries: flags.maxDeliveries,
		redisTimeoutMs: flags.redisTimeoutMs,
		perHost: options.perHost,
	};
	const { highWater: _recomputed, ...rest } = options;
	return { options: normaliseSweepOptions({ ...rest, concurrency: capacity }), transport: redisFleet(store, fleet) };
}
