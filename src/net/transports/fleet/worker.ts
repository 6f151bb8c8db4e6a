import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { HttpClientOptions } from '../../http/client.js';
import type { RedisTarget } from '../../../store/redis/url.js';
import { batcher } from '../threads/batch.js';
import { createExecutor, type Executor } from '../threads/execute.js';
import { encodeAttempt, type WireSpec } from '../threads/wire.js';
import { byRun, parseEntries, type Entry } from './entries.js';
import { clearStale } from './janitor.js';
import { fleetKeys, WORKER_GROUP } from './keys.js';
import { isReplyError, openFleetLink, type Reply } from './link.js';
import { SUBMIT, TAKE } from './scripts.js';

export interface WorkerOptions {
	/** Attempts in flight at most; also what this worker adds to a run's concurrency. */
	concurrency: number;
	/** Shown by `revisit workers`; default host-pid-random. */
	id?: string | undefined;
	/** One line per event worth a log (start, Redis lost and back, stop). */
	log?: ((line: string) => void) | undefined;
	/** Queue entries pending this long are checked, and deleted when their run is gone (janitor.ts); default 5 minutes. */
	staleMs?: number | undefined;
}

// An attempt is sent only while this much of its lease is left, by this process's clock
// since Redis granted it: a worker paused (GC, SIGSTOP) between taking and sending sends
// nothing after its lease could have gone to another.
const SEND_MARGIN = 0.5;
const HEARTBEAT_MS = 2_000;
const HEARTBEAT_TTL_MS = 10_000;
const STALE_MS = 300_000;
const JANITOR_EVERY_MS = 60_000;

/**
 * `revisit worker`: takes attempts from the fleet's queue, sends them with the run's own
 * client settings, and hands the outcomes back under their lease tokens. Keeps no state
 * but what is in flight and one HTTP client per run. Resolves when `signal` aborts, after
 * the attempts in flight are answered (or abandoned to their leases).
 *
 * @example
 * await runWorker(parseRedisUrl('redis://127.0.0.1:6379'), { concurrency: 32 }, controller.signal);
 */
export async function runWorker(target: RedisTarget, options: WorkerOptions, signal: AbortSignal): Promise<void> {
	const keys = fleetKeys(target);
	const id = options.id ?? `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`;
	const log = options.log ?? (() => {});
	const [link, blocking] = await Promise.all([openFleetLink(target), openFleetLink(target)]);
	const executors = new Map<string, { executor: Executor; used: number }>();
	const inFlight = new Set<Promise<void>>();
	const stats = { done: 0, refused: 0 };
	const started = Date.now();
	let down = false;
	const wake: Array<() => void> = [];
	const stopped = new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
	const attemptsStop = new AbortController();

	const lost = (error: unknown) => {
		if (!down) log(`lost Redis (${(error as Error).message}); retrying`);
		down = true;
	};
	const back = () => {
		if (down) log('Redis is back');
		down = false;
	};

	const beat = async () => {
		const body = JSON.stringify({
			id,
			host: hostname(),
			pid: process.pid,
			inFlight: inFlight.size,
			capacity: options.concurrency,
			done: stats.done,
			refused: stats.refused,
			started,
		});
		await link.call(keys.worker(id), ['SET', keys.worker(id), body, 'PX', String(HEARTBEAT_TTL_MS)]);
		await link.call(keys.workers, ['ZADD', keys.workers, String(Date.now() + HEARTBEAT_TTL_MS), id]);
		await link.call(keys.workers, ['ZREMRANGEBYSCORE', keys.workers, '-inf', String(Date.now())]);
	};
	await beat();
	const beating = setInterval(() => void beat().then(back, lost), HEARTBEAT_MS);
	log(`worker ${id} ready, concurrency ${options.concurrency}`);

	const submitting = new Set<Promise<unknown>>();
	const submit = batcher<{ run: string; args: string[] }>((items) => {
		const runs = new Map<string, string[]>();
		for (const item of items) runs.set(item.run, [...(runs.get(item.run) ?? []), ...item.args]);
		for (const [run, args] of runs) {
			const sent = repeat(() => link.script(SUBMIT, [keys.queue, keys.lease(run), keys.done(run)], args)).then(
				(accepted) => void (stats.refused += args.length / 4 - Number(accepted)),
				() => undefined,
			);
			submitting.add(sent);
			void sent.finally(() => submitting.delete(sent));
		}
	});

	// Outcomes must reach Redis: sent again until they do (SUBMIT is safe to repeat), or until shutdown's grace ends.
	const repeat = async (work: () => Promise<Reply>): Promise<Reply> => {
		for (let attempt = 0; ; attempt++) {
			try {
				const reply = await work();
				back();
				return reply;
			} catch (error) {
				if (isReplyError(error)) throw error;
				lost(error);
				if (attemptsStop.signal.aborted) throw error;
				await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** attempt, 2_000)));
			}
		}
	};

	const executorFor = async (run: string): Promise<Executor | undefined> => {
		const known = executors.get(run);
		if (known) {
			known.used = Date.now();
			return known.executor;
		}
		const settings = (await link.call(keys.run(run), ['HGET', keys.run(run), 'settings'])) as string | null;
		if (settings === null) return undefined;
		const executor = createExecutor(JSON.parse(settings) as HttpClientOptions);
		executors.set(run, { executor, used: Date.now() });
		return executor;
	};

	const staleMs = options.staleMs ?? STALE_MS;
	const janitor = setInterval(
		() => {
			void clearStale(link, keys, id, staleMs).then(
				(dropped) => dropped > 0 && log(`deleted ${dropped} queue entries of runs that ended without them`),
				(error: unknown) => {
					// No queue yet (NOGROUP) is nothing to clear.
					if (!isReplyError(error)) lost(error);
					else if (!/NOGROUP/.test((error as Error).message)) log(`janitor: ${(error as Error).message}`);
				},
			);
		},
		Math.min(JANITOR_EVERY_MS, Math.max(staleMs, 50)),
	);

	const sweepExecutors = setInterval(() => {
		for (const [run, { executor, used }] of executors) {
			if (Date.now() - used > 60_000) {
				executor.close();
				executors.delete(run);
			}
		}
	}, 30_000);

	const take = async (entries: Entry[]) => {
		for (const [run, group] of byRun(entries)) {
			const left = (await link.script(
				TAKE,
				[keys.queue, keys.lease(run)],
				group.flatMap((entry) => [entry.id, entry.token, entry.entry]),
			)) as number[];
			const granted = performance.now();
			const executor = await executorFor(run);
			group.forEach((entry, i) => {
				if (!left[i] || !executor) return;
				if (performance.now() - granted > left[i]! * SEND_MARGIN) return; // too late: its lease may be another's by now
				const work = executor.attempt(JSON.parse(entry.spec) as WireSpec, attemptsStop.signal).then(
					(attempt) => {
						stats.done++;
						submit.push({ run, args: [entry.id, entry.token, entry.entry, `${entry.id}\n${entry.token}\n${encodeAttempt(attempt)}`] });
					},
					() => undefined, // aborted at shutdown: the lease hands it to another worker
				);
				const tracked = work.finally(() => {
					inFlight.delete(tracked);
					wake.shift()?.();
				});
				inFlight.add(tracked);
			});
		}
	};

	try {
		while (!signal.aborted) {
			if (inFlight.size >= options.concurrency) {
				await Promise.race([new Promise<void>((resolve) => wake.push(resolve)), stopped]);
				continue;
			}
			let reply: Reply;
			try {
				reply = await blocking.call(keys.queue, [
					'XREADGROUP',
					'GROUP',
					WORKER_GROUP,
					id,
					'COUNT',
					String(options.concurrency - inFlight.size),
					'BLOCK',
					'1000',
					'STREAMS',
					keys.queue,
					'>',
				]);
				back();
			} catch (error) {
				if (/NOGROUP/.test(String((error as Error).message))) {
					await link.call(keys.queue, ['XGROUP', 'CREATE', keys.queue, WORKER_GROUP, '0', 'MKSTREAM']).catch(() => undefined);
				} else {
					lost(error);
					await Promise.race([new Promise((resolve) => setTimeout(resolve, 500)), stopped]);
				}
				continue;
			}
			const entries = (Array.isArray(reply) ? reply : []).flatMap((stream) => parseEntries((stream as Reply[])[1] ?? []));
			if (entries.length > 0) await take(entries).catch(lost);
		}
		// Shutdown: what is in flight finishes and is handed back; past the grace, it is abandoned to its lease.
		const grace = setTimeout(() => attemptsStop.abort(), 10_000);
		await Promise.all(inFlight);
		clearTimeout(grace);
		await new Promise((resolve) => setImmediate(resolve));
		await Promise.all(submitting);
	} finally {
		clearInterval(beating);
		clearInterval(sweepExecutors);
		clearInterval(janitor);
		for (const { executor } of executors.values()) executor.close();
		await link.call(keys.worker(id), ['DEL', keys.worker(id)]).catch(() => undefined);
		await link.call(keys.workers, ['ZREM', keys.workers, id]).catch(() => undefined);
		blocking.destroy();
		await link.close();
		log(`worker ${id} stopped after ${stats.done} attempts`);
	}
}
