import { GROUP } from './groups.js';
import { flagRow, type ValuesOf } from '../../config/setting-row.js';
import { flagsOf } from './setting.js';
import { UsageError } from '../../base/errors/index.js';
import { parseDuration } from '../../base/util/duration.js';
import { integerValue } from '../../config/values.js';
import type { FleetRunOptions } from '../../pipelines/fleet.js';

const seconds =
	(flag: string) =>
	(value: unknown): number | undefined => {
		if (value === undefined) return undefined;
		const ms = /^\d+(\.\d+)?$/.test(String(value)) ? Number(value) * 1000 : parseDuration(String(value));
		if (ms === undefined || ms <= 0) throw new UsageError(`--${flag} must be a duration such as 30s or 2m, or seconds (got ${JSON.stringify(value)})`);
		return ms;
	};

/** A coordinator's fleet settings (`sweep --workers`, `fetch`, `crawl`), one row each. */
export const fleetSettings = {
	workers: flagRow({
		group: GROUP.scale,
		doc:
			'Hand the requests to `revisit worker` processes through the Redis store (--store redis://…); ' +
			'the run keeps at most the sum of their --concurrency in flight',
		type: 'boolean',
		default: false,
	}),
	lease: flagRow({
		group: GROUP.scale,
		doc: 'With --workers: how long a worker may hold a request it took before it goes to another [default: --timeout + 10s]',
		parse: seconds('lease'),
	}),
	'max-deliveries': flagRow({
		group: GROUP.scale,
		doc: 'With --workers: hand-outs of a request, never answered, before its URL is an error (DELIVERY_LIMIT)',
		default: 3,
		parse: integerValue('max-deliveries', 1),
	}),
	'redis-timeout': flagRow({
		group: GROUP.scale,
		doc: 'How long a Redis store (and with --workers, the queue) may stay unreachable before the run ends (exit 2)',
		default: '30s',
		parse: (value: unknown) => seconds('redis-timeout')(value)!,
	}),
};

/** Parsed fleet flags of a coordinator. */
export type FleetFlags = ValuesOf<typeof fleetSettings>;

/** The coordinator's fleet flags, from their rows. */
export const fleetFlagOptions = flagsOf(fleetSettings);

/** The fleet flags as the pipeline layer takes them. */
export function fleetFrom(flags: FleetFlags): FleetRunOptions {
	return { workers: flags.workers, leaseMs: flags.lease, maxDeliveries: flags['max-deliveries'], redisTimeoutMs: flags['redis-timeout'] };
}
