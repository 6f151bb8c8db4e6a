import { GROUP, type FlagsFor } from './groups.js';
import { UsageError } from '../../base/errors/index.js';
import { parseDuration } from '../../base/util/duration.js';
import { integerValue } from '../../config/values.js';
import type { FleetRunOptions } from '../../pipelines/fleet.js';

/** Parsed fleet flags of a coordinator (`sweep --workers`, `fetch`, `crawl`). */
export interface FleetFlags {
	workers: boolean;
	lease?: number;
	'max-deliveries': number;
	'redis-timeout': number;
}

const seconds =
	(flag: string) =>
	(value: unknown): number | undefined => {
		if (value === undefined) return undefined;
		const ms = /^\d+(\.\d+)?$/.test(String(value)) ? Number(value) * 1000 : parseDuration(String(value));
		if (ms === undefined || ms <= 0) throw new UsageError(`--${flag} must be a duration such as 30s or 2m, or seconds (got ${JSON.stringify(value)})`);
		return ms;
	};

/** The coordinator's fleet flags: yargs option definitions, each checked by its coerce. */
export const fleetFlagOptions: FlagsFor<FleetFlags> = {
	workers: {
		group: GROUP.scale,
		type: 'boolean',
		default: false,
		describe:
			'Hand the requests to `revisit worker` processes through the Redis store (--store redis://…); the run keeps at most the sum of their --concurrency in flight',
	},
	lease: {
		group: GROUP.scale,
		requiresArg: true,
		coerce: seconds('lease'),
		describe: 'With --workers: how long a worker may hold a request it took before it goes to another [default: --timeout + 10s]',
	},
	'max-deliveries': {
		group: GROUP.scale,
		requiresArg: true,
		default: 3,
		coerce: integerValue('max-deliveries', 1),
		describe: 'With --workers: hand-outs of a request, never answered, before its URL is an error (DELIVERY_LIMIT)',
	},
	'redis-timeout': {
		group: GROUP.scale,
		requiresArg: true,
		default: '30s',
		coerce: seconds('redis-timeout'),
		describe: 'How long a Redis store (and with --workers, the queue) may stay unreachable before the run ends (exit 2)',
	},
};

/** The fleet flags as the pipeline layer takes them. */
export function fleetFrom(flags: FleetFlags): FleetRunOptions {
	return { workers: flags.workers, leaseMs: flags.lease, maxDeliveries: flags['max-deliveries'], redisTimeoutMs: flags['redis-timeout'] };
}
