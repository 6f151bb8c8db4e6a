import type { RedisTarget } from '../../../store/redis/url.js';
import { fleetKeys } from './keys.js';
import { openFleetLink, type FleetLink } from './link.js';

export interface WorkerStatus {
	id: string;
	host: string;
	pid: number;
	inFlight: number;
	capacity: number;
	done: number;
	refused: number;
	started: number;
}

export interface RunStatus {
	run: string;
	coordinator?: { host: string; pid: number; started: number } | undefined;
	issued: number;
	answered: number;
}

/**
 * The live workers (heartbeat within 10 s) and the runs in progress, as `revisit
 * workers` shows them; also how a coordinator learns the fleet's capacity.
 *
 * @example
 * const { workers } = await fleetStatus(parseRedisUrl('redis://127.0.0.1:6379'));
 */
export async function fleetStatus(target: RedisTarget, link?: FleetLink): Promise<{ workers: WorkerStatus[]; runs: RunStatus[] }> {
	const own = link ?? (await openFleetLink(target));
	const keys = fleetKeys(target);
	try {
		const now = String(Date.now());
		const ids = (await own.call(keys.workers, ['ZRANGEBYSCORE', keys.workers, now, '+inf'])) as string[];
		const beats = ids.length === 0 ? [] : ((await own.call(keys.worker(ids[0]!), ['MGET', ...ids.map((id) => keys.worker(id))])) as Array<string | null>);
		const workers = beats.filter((beat): beat is string => beat !== null).map((beat) => JSON.parse(beat) as WorkerStatus);
		const runIds = (await own.call(keys.runs, ['ZRANGEBYSCORE', keys.runs, now, '+inf'])) as string[];
		const runs: RunStatus[] = [];
		for (const run of runIds) {
			const [coordinator, issued, answered] = (await own.call(keys.run(run), ['HMGET', keys.run(run), 'coordinator', 'issued', 'answered'])) as Array<
				string | null
			>;
			if (coordinator === null) continue;
			runs.push({ run, coordinator: JSON.parse(coordinator) as RunStatus['coordinator'], issued: Number(issued ?? 0), answered: Number(answered ?? 0) });
		}
		return { workers, runs };
	} finally {
		if (!link) await own.close();
	}
}
