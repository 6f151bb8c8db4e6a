import { FleetError } from '../../transports/fleet/errors.js';
import { fleetDefaults } from '../../transports/fleet/options.js';
import { fleetStatus } from '../../transports/fleet/status.js';
import { redisFleet } from '../../transports/fleet/transport.js';
import type { TransportFactory } from '../../http/transport.js';
import type { FleetFlags } from '../flags/fleet.js';
import { normaliseSweepOptions, type SweepOptions } from '../../pipelines/sweep-options.js';
import { isRedisSpec, parseRedisUrl, redactSpec } from '../../store/redis-url.js';

/**
 * For a run with `--workers`: checks the store is Redis and that workers are alive, and
 * returns the run's options with its concurrency set to the fleet's (the sum of the live
 * workers' own `--concurrency`) and the transport that hands requests to them.
 *
 * @example
 * const fleet = await fleetRun(args.store, args, options);
 * runPipeline(io, { ...run, options: fleet.options, transport: fleet.transport });
 */
export async function fleetRun(store: string, flags: FleetFlags, options: SweepOptions): Promise<{ options: SweepOptions; transport?: TransportFactory }> {
	if (!flags.workers) return { options };
	if (!isRedisSpec(store)) throw new FleetError('FLEET_USAGE', `--workers needs a Redis store (--store redis://host:port), where workers take their requests; ${redactSpec(store)} is a LevelDB directory (for one machine, use --local-workers N)`);
	const { workers } = await fleetStatus(parseRedisUrl(store));
	if (workers.length === 0) throw new FleetError('FLEET_NO_WORKERS', `no live workers on ${redactSpec(store)}: start some with revisit worker --store ${redactSpec(store)}`);
	const capacity = workers.reduce((sum, worker) => sum + worker.capacity, 0);
	const defaults = fleetDefaults(options.timeoutMs);
	// --per-host also holds across runs that share the fleet (transports/fleet/permits.ts).
	const fleet = { ...defaults, ...(flags.lease ? { leaseMs: flags.lease } : {}), maxDeliveries: flags['max-deliveries'], redisTimeoutMs: flags['redis-timeout'], perHost: options.perHost };
	const { highWater: _recomputed, ...rest } = options;
	return { options: normaliseSweepOptions({ ...rest, concurrency: capacity }), transport: redisFleet(store, fleet) };
}
