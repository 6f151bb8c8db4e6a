import type { TransportFactory } from '../../http/transport.js';
import { parseRedisUrl } from '../../../store/redis/url.js';
import { openCoordinator } from './coordinator.js';
import type { FleetOptions } from './options.js';

/**
 * `sweep --workers`: the run's attempts go to the `revisit worker` processes on the Redis
 * that `store` names (see coordinator.ts).
 *
 * @example
 * await openSweepDeps({ store, transport: redisFleet(store, fleetDefaults(15_000)) }, options);
 */
export function redisFleet(store: string, options: FleetOptions): TransportFactory {
	return async (settings) => {
		const coordinator = await openCoordinator(parseRedisUrl(store), settings, options);
		return { transport: coordinator.transport, close: coordinator.close };
	};
}
