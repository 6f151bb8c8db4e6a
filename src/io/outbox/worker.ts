import { PipelineError } from '../../base/errors/index.js';
import type { Delivery, StoreReader, StoreWriter } from '../../store/model/types.js';
import { formatDuration } from '../../base/util/duration.js';
import { DEFAULT_BACKOFF, backoffDelay, type Backoff } from './backoff.js';
import { runOfKey } from './enqueue.js';
import type { OutboxTarget } from './targets.js';

export interface DeliveryOptions {
	/** Pending deliveries older than this (wall ms) are dropped, with a line (`--delivery-max-age`). */
	maxAgeMs: number;
	backoff?: Backoff | undefined;
	/** Failed attempts in a row after which a target fails the run with SINK_FAILED (a sweep: 4); absent, it is retried for as long as `maxAgeMs` (a watch). */
	attempts?: number | undefined;
	/**
	 * On a store other processes share (Redis): this process's run id (its keys', see
	 * enqueue.ts), and how long another's deliveries are left to it before this process
	 * takes them (it may have died); those made before this process started are taken at
	 * once (a restart's). Absent: every delivery is this process's.
	 */
	shared?: { run: string; adoptAfterMs: number } | undefined;
	/** One line on stderr: a target failing, back again, deliveries dropped. */
	diagnose(line: string): void;
	now?(): number;
}

/** Where one target stands, for /healthz, /metrics and the summary. */
export interface TargetStatus {
	id: string;
	shown: string;
	/** Deliveries waiting for it (exact when few; at least this many otherwise). */
	pending: number;
	/** When its oldest pending delivery was committed (wall ms); absent when none is pending. */
	oldestAt?: number | undefined;
	/** Since when its attempts have been failing, and the last failure's words; absent while it takes deliveries. */
	failing?: { since: number; problem: string } | undefined;
	failures: number;
	delivered: number;
	dropped: number;
}

/** The delivery worker of a run: see `startDeliveries`. */
export interface Deliveries {
	/** A delivery for `target` was made: it is looked for now (it is in the store once its batch is written). */
	queued(target: string): void;
	status(): TargetStatus[];
	/** Rejects when a target failed `attempts` times in a row (SINK_FAILED), or the store failed; never resolves. */
	readonly failed: Promise<never>;
	/** Delivers what is pending now, then ends: resolves once no target has any left; rejects as `failed`. */
	drain(): Promise<void>;
	/** Ends at once: an attempt under way is aborted, and what it carried stays pending. */
	stop(): Promise<void>;
}

/** Deliveries read from the store at a time, per target. */
const PAGE = 64;
/** How often an idle target looks at the store anyway (another process, a delivery it was not told of). */
const IDLE_MS = 2_000;
/** After `queued`, the store is looked at this often until the delivery shows (its commit batch is written), for up to EXPECT_MS. */
const EXPECT_POLL_MS = 50;
const EXPECT_MS = 5_000;

interface State {
	status: TargetStatus;
	target: OutboxTarget;
	failuresInRow: number;
	expectedAt: number;
	wake?: (() => void) | undefined;
}

/**
 * Sends the deliveries pending in the store to their targets, off the check path: one
 * loop per target, in commit order, deleting each delivery once the target took it (so a
 * change is delivered once, and again only if the process dies between the two). A failed
 * attempt is retried with backoff (backoff.ts); a failing target is named on stderr once,
 * and again when it takes deliveries again. Deliveries older than `maxAgeMs` are dropped
 * with a line. Each attempt runs under its target's deadline and ends at once on `stop`.
 *
 * @example
 * const deliveries = startDeliveries(store, outboxTargets(feeds), { maxAgeMs: 7 * 86_400_000, diagnose });
 * tasks$.pipe(enqueue(targets, { queued: deliveries.queued }), commit({}, store));
 * await deliveries.stop();
 */
export function startDeliveries(store: StoreReader & StoreWriter, targets: readonly OutboxTarget[], options: DeliveryOptions): Deliveries {
	const now = options.now ?? Date.now;
	const startedAt = now();
	const backoff = options.backoff ?? DEFAULT_BACKOFF;
	const controller = new AbortController();
	const { signal } = controller;
	let draining = false;
	let fail: (error: unknown) => void = () => {};
	const failed = new Promise<never>((_, reject) => (fail = reject));
	failed.catch(() => {});
	const states = new Map<string, State>(
		targets.map((target) => [
			target.id,
			{ target, failuresInRow: 0, expectedAt: 0, status: { id: target.id, shown: target.shown, pending: 0, failures: 0, delivered: 0, dropped: 0 } },
		]),
	);

	const pause = (state: State, ms: number, wakeable: boolean): Promise<void> =>
		new Promise((resolve) => {
			const done = () => {
				clearTimeout(timer);
				signal.removeEventListener('abort', done);
				state.wake = undefined;
				resolve();
			};
			const timer = setTimeout(done, ms);
			signal.addEventListener('abort', done, { once: true });
			if (wakeable) state.wake = done;
		});

	const read = async (id: string): Promise<Array<[string, Delivery]>> => {
		const page: Array<[string, Delivery]> = [];
		for await (const entry of store.deliveryEntries(id)) {
			page.push(entry);
			if (page.length >= PAGE) break;
		}
		return page;
	};

	const remove = async (state: State, keys: readonly string[]) => {
		await store.batch(keys.map((key) => ({ type: 'delDelivery' as const, key })));
		state.status.pending = Math.max(0, state.status.pending - keys.length);
	};

	/** One attempt at a group of deliveries: true once the target took them (and they are deleted). */
	const attempt = async (state: State, group: Array<[string, Delivery]>): Promise<boolean> => {
		const { status, target } = state;
		try {
			await target.send(
				group.map(([, delivery]) => delivery.payload),
				signal,
			);
		} catch (error) {
			if (signal.aborted) return false;
			const problem = (error as Error).message;
			status.failures++;
			state.failuresInRow++;
			if (options.attempts !== undefined && state.failuresInRow >= options.attempts) {
				throw new PipelineError(
					'SINK_FAILED',
					`${target.shown}: ${problem} after ${options.attempts} attempts; the changes not delivered stay in the store, ` +
						`and the next run with this target delivers them`,
				);
			}
			if (!status.failing)
				options.diagnose(
					`${target.shown}: cannot deliver (${problem}); ${status.pending} pending, retried with backoff, kept for ${formatDuration(options.maxAgeMs)}; ` +
						`checks go on`,
				);
			status.failing ??= { since: now(), problem };
			status.failing.problem = problem;
			await pause(state, backoffDelay(state.failuresInRow, now() - status.failing.since, backoff), false);
			return false;
		}
		await remove(
			state,
			group.map(([key]) => key),
		);
		status.delivered += group.length;
		if (status.failing)
			options.diagnose(
				`${target.shown}: delivering again, after ${state.failuresInRow} failed attempt${state.failuresInRow === 1 ? '' : 's'} over ` +
					`${Math.round((now() - status.failing.since) / 1000)} s`,
			);
		status.failing = undefined;
		state.failuresInRow = 0;
		return true;
	};

	const serve = async (state: State): Promise<void> => {
		const { status, target } = state;
		while (!signal.aborted) {
			const page = await read(target.id);
			status.pending = page.length < PAGE ? page.length : Math.max(status.pending, page.length);
			status.oldestAt = page[0]?.[1].at;
			if (page.length === 0) {
				if (draining) return;
				const expecting = now() - state.expectedAt < EXPECT_MS;
				await pause(state, expecting ? EXPECT_POLL_MS : IDLE_MS, !expecting);
				continue;
			}
			const mine = options.shared
				? page.filter(
						([key, delivery]) => runOfKey(key) === options.shared!.run || delivery.at < startedAt || now() - delivery.at > options.shared!.adoptAfterMs,
					)
				: page;
			if (mine.length === 0) {
				// Only others' recent deliveries: theirs to send.
				if (draining) return;
				await pause(state, IDLE_MS, true);
				continue;
			}
			const expired = mine.filter(([, delivery]) => now() - delivery.at > options.maxAgeMs);
			if (expired.length > 0) {
				await remove(
					state,
					expired.map(([key]) => key),
				);
				status.dropped += expired.length;
				options.diagnose(
					`${target.shown}: ${expired.length} deliver${expired.length === 1 ? 'y' : 'ies'} older than --delivery-max-age ` +
						`${formatDuration(options.maxAgeMs)} dropped`,
				);
				continue;
			}
			// The page in groups, each deleted once taken; read again after a failure (and its wait) or at its end.
			for (let i = 0; i < mine.length && !signal.aborted; i += target.batch) {
				if (!(await attempt(state, mine.slice(i, i + target.batch)))) break;
				status.oldestAt = mine[i + target.batch]?.[1].at;
			}
		}
	};

	const loops = [...states.values()].map((state) =>
		serve(state).catch((error: unknown) => {
			if (signal.aborted) return;
			fail(error);
			throw error;
		}),
	);
	const ended = Promise.allSettled(loops);

	return {
		queued(target) {
			const state = states.get(target);
			if (!state) return;
			state.status.pending++;
			state.expectedAt = now();
			state.wake?.();
		},
		status: () => [...states.values()].map((state) => ({ ...state.status, ...(state.status.failing ? { failing: { ...state.status.failing } } : {}) })),
		failed,
		async drain() {
			draining = true;
			for (const state of states.values()) state.wake?.();
			await Promise.race([Promise.all(loops), failed]);
		},
		async stop() {
			controller.abort();
			for (const state of states.values()) state.wake?.();
			await ended;
		},
	};
}
