import type { RedisTarget } from '../../../store/redis/url.js';

/**
 * The fleet's keys, all under one Redis Cluster hash tag (`P{fleet}`), so that each Lua
 * script touches one slot: the work stream, a run's lease hash and result list, worker
 * heartbeats. The store's URL records stay spread over their own 16 tags; only the
 * queue sits on one node.
 *
 *   P{fleet}:q            stream, consumer group `workers`: one entry per attempt handed out
 *   P{fleet}:runs         sorted set: run id → when its keys expire (ms)
 *   P{fleet}:run:RUN      hash: settings (the run's HTTP client, JSON), progress counters
 *   P{fleet}:lease:RUN    hash: attempt id → token; id:d → deadline (Redis TIME, ms); id:s → started
 *   P{fleet}:done:RUN     list: outcomes waiting for the coordinator (JSON)
 *   P{fleet}:host:ORIGIN  sorted set: per-host permit (RUN:ID) → when it lapses (ms), shared by every run
 *   P{fleet}:workers      sorted set: worker id → when its heartbeat expires (ms)
 *   P{fleet}:worker:ID    string: the worker's heartbeat (JSON), with a TTL
 *
 * @example
 * fleetKeys({ prefix: 'revisit:' } as RedisTarget).queue // 'revisit:{fleet}:q'
 */
export function fleetKeys(target: Pick<RedisTarget, 'prefix'>) {
	const base = `${target.prefix}{fleet}`;
	return {
		queue: `${base}:q`,
		runs: `${base}:runs`,
		run: (run: string) => `${base}:run:${run}`,
		lease: (run: string) => `${base}:lease:${run}`,
		done: (run: string) => `${base}:done:${run}`,
		host: (origin: string) => `${base}:host:${origin}`,
		workers: `${base}:workers`,
		worker: (id: string) => `${base}:worker:${id}`,
	};
}

export type FleetKeys = ReturnType<typeof fleetKeys>;

/** The consumer group every worker reads the queue in. */
export const WORKER_GROUP = 'workers';
