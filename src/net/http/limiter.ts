import type { Clock } from '../../domain/task/clock.js';
import { positiveInteger, positiveNumber } from '../../base/util/checks.js';

export interface LimiterOptions {
	/** Requests in flight in total. */
	concurrency: number;
	/** Requests in flight per origin. */
	perHost: number;
	/** Request starts per second per origin; unlimited when undefined. */
	rate?: number | undefined;
}

/** How long a host may go without starting a queued job before its waiting jobs are told they are held. */
export const HELD_AFTER_MS = 1000;

/**
 * Runs jobs under a global and a per-origin concurrency limit and an optional
 * per-origin rate. A job waiting for its origin holds no global slot, so a slow or
 * rate-limited host never starves the others. Origins are served round-robin.
 *
 * A rate or a gap (Crawl-delay) holds between requests as the origin sees them: from
 * when a job says its request was sent, not from when the job started (a loaded event
 * loop may hold a request for tens of ms between the two). A job that never says so
 * counts as sent when it ends.
 *
 * `held`, when given, is called once if the job is still queued after its origin has
 * started nothing for HELD_AFTER_MS: the job is held up by its own host (slow, down,
 * rate-limited), so its caller may stop counting it against a shared budget.
 *
 * @example
 * const limiter = createLimiter({ concurrency: 24, perHost: 4 });
 * await limiter.run('https://example.org', () => got(url, { signal }), signal);
 */
export interface Limiter {
	/**
	 * `first` queues the job ahead of its origin's waiting jobs: a follow-up of a request already answered.
	 * The job is handed `sent`, to call once its request is on the wire: an origin's rate and gap are
	 * counted from then, and a paced origin starts nothing else until it is called (or the job ends).
	 */
	run<T>(origin: string, job: (sent: () => void) => Promise<T>, signal?: AbortSignal, held?: () => void, first?: boolean): Promise<T>;
	/**
	 * From now on, at least `ms` between two request starts to `origin` (robots.txt's
	 * Crawl-delay), counted from `since` (when the origin's last request started) if given.
	 */
	gap(origin: string, ms: number, since?: number): void;
	/** The per-origin gaps, shared with another limiter of the same run (a crawl's fetch phase). */
	readonly pacing: Pacing;
}

/** Per-origin smallest gaps between request starts, and when each such origin last started one. */
export interface Pacing {
	gaps: Map<string, number>;
	last: Map<string, number>;
}

export function createPacing(): Pacing {
	return { gaps: new Map(), last: new Map() };
}

interface Waiting {
	start: () => void;
	held?: (() => void) | undefined;
}

interface HostState {
	active: number;
	/** Jobs started whose request is not yet on the wire: a paced origin waits for them. */
	unsent: number;
	queue: Waiting[];
	nextStartAt: number;
	/** When the host last started a job (or was first seen): a host that starts nothing is stalled. */
	lastStartAt: number;
	timer?: NodeJS.Timeout | undefined;
}

export function createLimiter(options: LimiterOptions, clock: Clock = { now: Date.now }, pacing: Pacing = createPacing()): Limiter {
	const concurrency = positiveInteger('concurrency', options.concurrency);
	const perHost = positiveInteger('perHost', options.perHost);
	const interval = options.rate === undefined ? 0 : 1000 / positiveNumber('rate', options.rate);
	const hosts = new Map<string, HostState>();
	let active = 0;

	// Without a rate or a gap, no host ever waits for its interval: skip the clock entirely.
	const now = (): number => (interval === 0 && pacing.gaps.size === 0 ? 0 : clock.now());
	// When the origin may start its next job: its rate interval, and its gap (Crawl-delay) if it has one.
	const startsAt = (origin: string, host: HostState): number => {
		const gap = pacing.gaps.get(origin);
		// The next start is counted from this send, not yet made (`sent` dispatches again).
		if (host.unsent > 0 && (interval > 0 || gap !== undefined)) return Number.POSITIVE_INFINITY;
		if (gap === undefined) return host.nextStartAt;
		return Math.max(host.nextStartAt, (pacing.last.get(origin) ?? Number.NEGATIVE_INFINITY) + gap);
	};

	const dispatch = (): void => {
		let progressed = true;
		while (progressed && active < concurrency) {
			progressed = false;
			for (const [origin, host] of hosts) {
				if (active >= concurrency) break;
				if (host.queue.length === 0) {
					// Forget idle origins once their rate interval has passed: a sweep may touch millions.
					if (host.active === 0 && startsAt(origin, host) <= now()) hosts.delete(origin);
					continue;
				}
				if (host.active >= perHost) continue;
				const wait = startsAt(origin, host) - now();
				if (wait === Number.POSITIVE_INFINITY) continue;
				if (wait > 0) {
					host.timer ??= setTimeout(() => {
						host.timer = undefined;
						dispatch();
					}, wait);
					continue;
				}
				take(origin, host);
				host.queue.shift()!.start();
				progressed = true;
			}
		}
	};

	// One watch for the whole limiter, running only while jobs are queued.
	// biome-ignore lint/correctness/noUnusedVariables: read by the `??=` in watchQueues, which keeps one timer
	let watch: NodeJS.Timeout | undefined;
	const checkHeld = (): void => {
		watch = undefined;
		const at = clock.now();
		let queued = false;
		for (const host of hosts.values()) {
			if (host.queue.length === 0) continue;
			queued = true;
			// With every slot busy, a queued job waits for a slot, not for its host.
			if (active >= concurrency || at - host.lastStartAt < HELD_AFTER_MS) continue;
			for (const waiting of host.queue) {
				const { held } = waiting;
				waiting.held = undefined;
				held?.();
			}
		}
		if (queued) watchQueues();
	};
	const watchQueues = (): void => {
		watch ??= setTimeout(checkHeld, HELD_AFTER_MS / 4).unref();
	};

	const take = (origin: string, host: HostState): void => {
		host.lastStartAt = clock.now();
		host.nextStartAt = now() + interval;
		if (pacing.gaps.has(origin)) pacing.last.set(origin, clock.now());
		host.active++;
		host.unsent++;
		active++;
		// Move the origin to the back, for round-robin fairness.
		if (hosts.size > 1) {
			hosts.delete(origin);
			hosts.set(origin, host);
		}
	};

	// The origin's next start counts from now: its rate interval and its gap.
	const sentNow = (origin: string, host: HostState): void => {
		host.unsent--;
		if (interval > 0) host.nextStartAt = Math.max(host.nextStartAt, clock.now() + interval);
		if (pacing.gaps.has(origin)) pacing.last.set(origin, Math.max(pacing.last.get(origin) ?? Number.NEGATIVE_INFINITY, clock.now()));
	};

	const settle = <T>(origin: string, host: HostState, job: (sent: () => void) => Promise<T>): Promise<T> => {
		let unsent = true;
		const sent = (): void => {
			if (!unsent) return;
			unsent = false;
			sentNow(origin, host);
			dispatch();
		};
		const finish = (): void => {
			if (unsent) {
				unsent = false;
				sentNow(origin, host);
			}
			host.active--;
			active--;
			dispatch();
		};
		let pending: Promise<T>;
		try {
			pending = job(sent);
		} catch (error) {
			finish();
			return Promise.reject(error);
		}
		return pending.then(
			(value) => {
				finish();
				return value;
			},
			(error: unknown) => {
				finish();
				throw error;
			},
		);
	};

	return {
		pacing,
		gap(origin, ms, since) {
			pacing.gaps.set(origin, Math.max(pacing.gaps.get(origin) ?? 0, ms));
			if (since !== undefined) pacing.last.set(origin, Math.max(pacing.last.get(origin) ?? Number.NEGATIVE_INFINITY, since));
			dispatch();
		},
		run<T>(origin: string, job: (sent: () => void) => Promise<T>, signal?: AbortSignal, held?: () => void, first = false): Promise<T> {
			if (signal?.aborted) return Promise.reject(signal.reason);
			let host = hosts.get(origin);
			if (!host) {
				host = { active: 0, unsent: 0, queue: [], nextStartAt: 0, lastStartAt: clock.now() };
				hosts.set(origin, host);
			}
			const state = host;
			// Nobody is waiting ahead of it and there is room now: no queue entry, no abort listener.
			if (state.queue.length === 0 && active < concurrency && state.active < perHost && startsAt(origin, state) <= now()) {
				take(origin, state);
				return settle(origin, state, job);
			}
			return new Promise<T>((resolve, reject) => {
				const onAbort = (): void => {
					const index = state.queue.indexOf(waiting);
					if (index !== -1) {
						state.queue.splice(index, 1);
						reject(signal!.reason);
					}
				};
				const waiting: Waiting = {
					start: () => {
						signal?.removeEventListener('abort', onAbort);
						settle(origin, state, job).then(resolve, reject);
					},
					held,
				};
				signal?.addEventListener('abort', onAbort, { once: true });
				if (first) state.queue.unshift(waiting);
				else state.queue.push(waiting);
				dispatch();
				if (held && state.queue.length > 0) watchQueues();
			});
		},
	};
}
