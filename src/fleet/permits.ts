import { batcher } from '../workers/batch.js';
import type { FleetKeys } from './keys.js';
import type { FleetLink, Reply } from './link.js';
import { PERMIT } from './scripts.js';

/** How often an attempt refused a permit asks again (another run holds the host's). */
const RETRY_MS = 50;
/**
 * A permit lapses this long after its last renewal, and is renewed three times as often:
 * a coordinator killed mid-run holds its hosts from the next run for no longer than this.
 */
export const PERMIT_TTL_MS = 5_000;

export interface Permits {
	/** Resolves once `id` holds a permit for `origin`; resolves at once when permits are off. */
	take(id: string, origin: string): Promise<void>;
	/** Gives `id`'s permit back, or stops waiting for one. */
	give(id: string): void;
	/** Permits held now. */
	readonly held: number;
	/** Stops asking again for the permits still wanted. */
	close(): void;
}

interface Want {
	origin: string;
	granted(): void;
}

/**
 * Per-host permits in Redis, shared by every run on the fleet: the run's own limiter
 * keeps `--per-host` within one run, and these keep it when two runs (two cron jobs that
 * overlap) send to the same origin through one fleet. A permit is taken before an
 * attempt is handed out and given back when its outcome is in; it lapses `ttlMs` after
 * its last renewal (PERMIT_TTL_MS), so a coordinator that dies blocks nobody for long. Takes and gives
 * are batched, one script or command per turn of the event loop.
 *
 * @example
 * const permits = createPermits(keys, run, { perHost: 2 }, (what, work) => work(link), fail);
 * await permits.take(id, 'https://example.org'); ... permits.give(id);
 */
export function createPermits(
	keys: FleetKeys,
	run: string,
	options: { perHost: number | undefined; ttlMs?: number | undefined },
	redis: (what: string, work: (link: FleetLink) => Promise<Reply>) => Promise<Reply>,
	fail: (error: unknown) => void,
): Permits {
	const ttlMs = options.ttlMs ?? PERMIT_TTL_MS;
	const held = new Map<string, string>();
	const waiting = new Map<string, Want>();
	let retry: NodeJS.Timeout | undefined;
	let renewing = false;
	const permit = (id: string) => `${run}:${id}`;
	/** One PERMIT script for the batch; whether each of `pairs` holds its permit, in order. */
	const ask = async (pairs: ReadonlyArray<readonly [string, string]>): Promise<boolean[]> => {
		const byOrigin = new Map<string, string[]>();
		for (const [id, origin] of pairs) byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), id]);
		const args = [String(ttlMs), ...[...byOrigin.values()].flatMap((ids) => [String(options.perHost), String(ids.length), ...ids.map(permit)])];
		const replies = (await redis('take per-host permits', (link) => link.script(PERMIT, [...byOrigin.keys()].map((origin) => keys.host(origin)), args))) as number[];
		const granted = new Map<string, boolean>();
		[...byOrigin.values()].flat().forEach((id, i) => granted.set(id, replies[i] === 1));
		return pairs.map(([id]) => granted.get(id) === true);
	};
	const giveBack = (pairs: ReadonlyArray<readonly [string, string]>) => {
		const byOrigin = new Map<string, string[]>();
		for (const [id, origin] of pairs) byOrigin.set(origin, [...(byOrigin.get(origin) ?? []), permit(id)]);
		for (const [origin, permits] of byOrigin) {
			// Lost with Redis, a permit lapses by itself.
			void redis('give per-host permits back', (link) => link.call(keys.host(origin), ['ZREM', keys.host(origin), ...permits])).catch(() => undefined);
		}
	};

	// Ids whose ask is with Redis now: not asked again until it answers, or a second grant
	// of the same permit would look like one given up meanwhile, and be given back.
	const asked = new Set<string>();
	const asking = batcher<string>((ids) => {
		const pairs = [...new Set(ids)].filter((id) => waiting.has(id) && !asked.has(id)).map((id) => [id, waiting.get(id)!.origin] as const);
		if (pairs.length === 0) return;
		for (const [id] of pairs) asked.add(id);
		ask(pairs).then((granted) => {
			const late: Array<readonly [string, string]> = [];
			pairs.forEach(([id, origin], i) => {
				asked.delete(id);
				if (!granted[i]) return;
				const want = waiting.get(id);
				// Given up while asking: the permit goes straight back.
				if (!want) return void late.push([id, origin]);
				waiting.delete(id);
				held.set(id, origin);
				want.granted();
			});
			if (late.length > 0) giveBack(late);
			if (waiting.size > 0) retry ??= setTimeout(again, RETRY_MS);
		}, fail);
	});
	const again = () => {
		clearTimeout(retry);
		retry = undefined;
		for (const id of waiting.keys()) asking.push(id);
	};

	const giving = batcher<readonly [string, string]>((pairs) => {
		giveBack(pairs);
		// Someone here may be waiting for the very host just freed.
		if (waiting.size > 0) again();
	});

	// A renewal that fails is not the run's end: the heartbeat says when Redis has been gone too long.
	const renewal = setInterval(() => {
		if (renewing || held.size === 0) return;
		renewing = true;
		void ask([...held]).catch(() => undefined).finally(() => (renewing = false));
	}, ttlMs / 3);
	renewal.unref();

	return {
		take(id, origin) {
			if (options.perHost === undefined) return Promise.resolve();
			return new Promise<void>((granted) => {
				waiting.set(id, { origin, granted });
				asking.push(id);
			});
		},
		give(id) {
			if (waiting.delete(id)) return;
			const origin = held.get(id);
			if (origin === undefined) return;
			held.delete(id);
			giving.push([id, origin]);
		},
		get held() {
			return held.size;
		},
		close() {
			clearTimeout(retry);
			clearInterval(renewal);
			waiting.clear();
		},
	};
}
