import { batcher } from '../threads/batch.js';
import type { FleetKeys } from './keys.js';
import type { FleetLink, Reply } from './link.js';
import { PERMIT } from './scripts.js';

/** How often a request refused a permit asks again (other runs hold the host's). */
const RETRY_MS = 50;
/** A permit this run holds but no request uses goes back to the fleet after this long. */
const IDLE_MS = 500;
/**
 * A permit lapses this long after its last renewal, and is renewed three times as often:
 * a coordinator killed mid-run holds its hosts from the next run for no longer than this.
 */
export const PERMIT_TTL_MS = 5_000;

export interface PermitOptions {
	/** Requests in flight per origin across every run of the fleet; absent, permits are off. */
	perHost: number | undefined;
	ttlMs?: number | undefined;
	idleMs?: number | undefined;
}

export interface Permits {
	/** Resolves once request `id` holds a permit for `origin`; at once when permits are off. */
	take(id: string, origin: string): Promise<void>;
	/** Request `id` is done with its permit, or stops waiting for one. */
	give(id: string): void;
	/** Permits this run holds now, in use or idle. */
	readonly held: number;
	/** Stops renewing and asking; gives every permit back unless `release` is false (a run that dies). */
	close(release?: boolean): Promise<void>;
}

interface Host {
	/** Permit ids this run holds for the origin. */
	permits: string[];
	/** How many of them requests are using. */
	inUse: number;
	/** Requests waiting for one, first come first served. */
	queue: Want[];
	idle?: NodeJS.Timeout | undefined;
}

interface Want {
	id: string;
	origin: string;
	/** The permit id asked for on its behalf. */
	permit: string;
	granted(): void;
}

/**
 * Per-host permits in Redis, shared by every run on the fleet: a run's own limiter keeps
 * `--per-host` within the run, and these keep it when two runs (two cron jobs that
 * overlap) send to the same origin through one fleet. A request takes a permit before it
 * is handed out and gives it back when its outcome is in. A permit given back stays with
 * the run while its next request for that origin comes within `idleMs`, so a run that
 * keeps an origin busy asks Redis nothing per request: Redis hears of a host when the
 * run's use of it grows or ends. Asks and gives are batched per turn of the event loop.
 * A permit lapses `ttlMs` after its last renewal, so a coordinator that dies blocks no
 * other run for long.
 *
 * @example
 * const permits = createPermits(keys, run, { perHost: 2 }, (what, work) => work(link), fail);
 * await permits.take(id, 'https://example.org'); ... permits.give(id);
 */
export function createPermits(
	keys: FleetKeys,
	run: string,
	options: PermitOptions,
	redis: (what: string, work: (link: FleetLink) => Promise<Reply>) => Promise<Reply>,
	fail: (error: unknown) => void,
): Permits {
	const ttlMs = options.ttlMs ?? PERMIT_TTL_MS;
	const idleMs = options.idleMs ?? IDLE_MS;
	const hosts = new Map<string, Host>();
	const using = new Map<string, string>();
	const wants = new Map<string, Want>();
	// Wants whose ask is with Redis now: not asked again until it answers.
	const asked = new Set<string>();
	let seq = 0;
	let retry: NodeJS.Timeout | undefined;
	let renewing = false;
	let closed = false;

	const hostOf = (origin: string): Host => {
		let host = hosts.get(origin);
		if (!host) hosts.set(origin, (host = { permits: [], inUse: 0, queue: [] }));
		return host;
	};
	const start = (id: string, origin: string, host: Host): void => {
		host.inUse++;
		using.set(id, origin);
	};
	const unqueue = (want: Want): void => {
		wants.delete(want.id);
		const host = hosts.get(want.origin);
		if (host) host.queue = host.queue.filter((other) => other !== want);
	};

	/** One PERMIT script for the batch: whether each (permit, origin) is held, in order. */
	const ask = async (pairs: ReadonlyArray<readonly [string, string]>): Promise<boolean[]> => {
		const byOrigin = new Map<string, string[]>();
		for (const [permit, origin] of pairs) byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), permit]);
		const args = [String(ttlMs), ...[...byOrigin.values()].flatMap((permits) => [String(options.perHost), String(permits.length), ...permits])];
		const replies = (await redis('take per-host permits', (link) =>
			link.script(
				PERMIT,
				[...byOrigin.keys()].map((origin) => keys.host(origin)),
				args,
			),
		)) as number[];
		const granted = new Map<string, boolean>();
		[...byOrigin.values()].flat().forEach((permit, i) => granted.set(permit, replies[i] === 1));
		return pairs.map(([permit]) => granted.get(permit) === true);
	};
	const giveBack = (origin: string, permits: string[]): Promise<unknown> =>
		// Lost with Redis, a permit lapses by itself.
		redis('give per-host permits back', (link) => link.call(keys.host(origin), ['ZREM', keys.host(origin), ...permits])).catch(() => undefined);

	// Spare permits (held, unused) go back after idleMs, unless a request takes them first.
	const idle = (origin: string, host: Host): void => {
		if (host.idle || closed || host.inUse >= host.permits.length) return;
		host.idle = setTimeout(() => {
			host.idle = undefined;
			const spare = host.permits.splice(0, Math.max(0, host.permits.length - host.inUse));
			if (spare.length > 0) void giveBack(origin, spare);
			if (host.permits.length === 0 && host.queue.length === 0) hosts.delete(origin);
		}, idleMs);
	};

	const asking = batcher<Want>((batch) => {
		const fresh = [...new Set(batch)].filter((want) => wants.get(want.id) === want && !asked.has(want.permit));
		if (fresh.length === 0 || closed) return;
		for (const want of fresh) asked.add(want.permit);
		ask(fresh.map((want) => [want.permit, want.origin] as const)).then((granted) => {
			fresh.forEach((want, i) => {
				asked.delete(want.permit);
				if (!granted[i]) return;
				const host = hostOf(want.origin);
				host.permits.push(want.permit);
				// Its request waits still: it goes. Otherwise (given up, or served by a permit given
				// back meanwhile) the permit is spare: the next in line takes it, or it idles.
				const next = wants.get(want.id) === want ? want : host.queue[0];
				if (next) {
					unqueue(next);
					start(next.id, next.origin, host);
					next.granted();
				} else idle(want.origin, host);
			});
			if (wants.size > 0 && !closed) retry ??= setTimeout(again, RETRY_MS);
		}, fail);
	});
	const again = (): void => {
		retry = undefined;
		for (const want of wants.values()) asking.push(want);
	};

	// A renewal that fails is not the run's end: the heartbeat says when Redis has been gone too long.
	const renewal = setInterval(() => {
		const held = [...hosts].flatMap(([origin, host]) => host.permits.map((permit) => [permit, origin] as const));
		if (renewing || held.length === 0) return;
		renewing = true;
		void ask(held)
			.then(
				(kept) => {
					// One that lapsed meanwhile (the run stalled past the ttl) and was taken is gone.
					held.forEach(([permit, origin], i) => {
						const host = hosts.get(origin);
						if (!kept[i] && host) host.permits = host.permits.filter((other) => other !== permit);
					});
				},
				() => undefined,
			)
			.finally(() => (renewing = false));
	}, ttlMs / 3);
	renewal.unref();

	return {
		take(id, origin) {
			if (options.perHost === undefined) return Promise.resolve();
			const host = hostOf(origin);
			clearTimeout(host.idle);
			host.idle = undefined;
			if (host.inUse < host.permits.length) {
				start(id, origin, host);
				return Promise.resolve();
			}
			return new Promise<void>((granted) => {
				const want: Want = { id, origin, permit: `${run}:${seq++}`, granted };
				wants.set(id, want);
				host.queue.push(want);
				asking.push(want);
			});
		},
		give(id) {
			const want = wants.get(id);
			if (want) return unqueue(want);
			const origin = using.get(id);
			if (origin === undefined) return;
			using.delete(id);
			const host = hostOf(origin);
			const next = host.inUse <= host.permits.length ? host.queue[0] : undefined;
			if (next) {
				// Handed straight to the next request for the origin: Redis needs to hear nothing.
				unqueue(next);
				using.set(next.id, origin);
				return next.granted();
			}
			host.inUse--;
			idle(origin, host);
		},
		get held() {
			return [...hosts.values()].reduce((sum, host) => sum + host.permits.length, 0);
		},
		async close(release = true) {
			closed = true;
			clearTimeout(retry);
			clearInterval(renewal);
			wants.clear();
			for (const host of hosts.values()) clearTimeout(host.idle);
			const held = [...hosts].filter(([, host]) => host.permits.length > 0);
			hosts.clear();
			if (release) await Promise.all(held.map(([origin, host]) => giveBack(origin, host.permits)));
		},
	};
}
