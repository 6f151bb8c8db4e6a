import { randomBytes } from 'node:crypto';
import { binRate, type ClaimOptions, type ClaimRef, type DueEntry } from '../../model/due.js';
import type { HeadItem } from './heads.js';
import type { LevelPlaces } from './places.js';
import { keyTime, pad, type Place } from './keys.js';

/** A claim: its URL's place (origin, its `at` key's due time, rate bin), until when its lease holds, and its token. */
export interface Lease {
	origin: string;
	due: number;
	bin: number;
	until: number;
	token: string;
	/** The URL was taken out of the schedule while claimed: its `done` puts nothing back. */
	gone?: boolean;
}

/**
 * The claims of a schedule one process holds (LevelDB, memory), kept in memory only: a
 * claimed URL's `at` key stays where it is and the claims skip it. Nothing of a claim is
 * written, so there is nothing to take back after kill -9: the URLs a killed process had
 * claimed are simply due again when the schedule is next opened.
 *
 * Each claim gets a token; `end` with another claim's token does nothing, so that a verdict
 * whose lease ran out (and whose URL was claimed again since) cannot end the new claim.
 *
 * @example
 * const leases = new Leases();
 * const token = leases.take('https://a.test/x', 'https://a.test', 100, 80, 60_100);
 * leases.end({ url: 'https://a.test/x', token }); // the lease
 */
export class Leases {
	readonly #byUrl = new Map<string, Lease>();
	readonly #perOrigin = new Map<string, number>();
	/** Tokens of this schedule's opening: those of an earlier opening (a restart) match none. */
	readonly #prefix = randomBytes(4).toString('hex');
	#issued = 0;

	get size(): number {
		return this.#byUrl.size;
	}

	/** Origins with claims. */
	get origins(): number {
		return this.#perOrigin.size;
	}

	has(url: string): boolean {
		return this.#byUrl.has(url);
	}

	get(url: string): Lease | undefined {
		return this.#byUrl.get(url);
	}

	/** Claims of `origin`. */
	count(origin: string): number {
		return this.#perOrigin.get(origin) ?? 0;
	}

	/** Claims `url` (its `at` key due at `due`, in rate bin `bin`) until `until`; returns the claim's token. */
	take(url: string, origin: string, due: number, bin: number, until: number): string {
		const token = `${this.#prefix}.${(++this.#issued).toString(36)}`;
		this.#byUrl.set(url, { origin, due, bin, until, token });
		this.#perOrigin.set(origin, this.count(origin) + 1);
		return token;
	}

	/** Ends the claim of `ref.url` when its token is `ref.token` (absent: whatever the token); the lease ended, or undefined for none. */
	end(ref: ClaimRef): Lease | undefined {
		const lease = this.#byUrl.get(ref.url);
		if (!lease || (ref.token !== undefined && ref.token !== lease.token)) return undefined;
		this.#byUrl.delete(ref.url);
		this.#drop(lease.origin);
		return lease;
	}

	/** A claimed URL's `at` key moved (`put`): it keeps its claim. */
	moved(url: string, origin: string, due: number, bin: number): void {
		const lease = this.#byUrl.get(url);
		if (!lease) return;
		if (lease.origin !== origin) {
			this.#drop(lease.origin);
			this.#perOrigin.set(origin, this.count(origin) + 1);
		}
		this.#byUrl.set(url, { origin, due, bin, until: lease.until, token: lease.token });
	}

	/** A claimed URL was taken out of the schedule: it stays claimed until its `done`, which puts nothing back. */
	removed(url: string): void {
		const lease = this.#byUrl.get(url);
		if (lease) lease.gone = true;
	}

	/** Ends the claims whose lease ran out by `now`: their URLs are back in the schedule where their keys are. */
	expire(now: number): void {
		for (const [url, lease] of this.#byUrl) if (lease.until <= now) this.end({ url });
	}

	/** Per origin, how many of its claims have keys due before `by`. */
	dueBefore(by: number): Map<string, number> {
		const counts = new Map<string, number>();
		for (const lease of this.#byUrl.values()) if (lease.due < by) counts.set(lease.origin, (counts.get(lease.origin) ?? 0) + 1);
		return counts;
	}

	#drop(origin: string): void {
		const left = this.count(origin) - 1;
		if (left > 0) this.#perOrigin.set(origin, left);
		else this.#perOrigin.delete(origin);
	}
}

/** Keys read past what a claim takes, kept for the next claims of the origin (see OriginHeads). */
const READ_AHEAD = 96;
/** Origins a pull-ahead claim looks at, besides those with claims: a bounded read when nothing is due. */
const AHEAD_ORIGINS = 256;

/**
 * `DueQueue.claim` on the LevelDB schedule, for `tokens` slots of the rate: the origins
 * ready by now (their gap passed) with room under `perHost` and a URL due that is not
 * claimed, in `ready` order until there are enough; then the earliest of those first.
 * Writes only an origin's claim time, where it has a gap.
 *
 * @example
 * const entries = await claimDue(places, leases, options, now, 10);
 */
export async function claimDue(places: LevelPlaces, leases: Leases, options: ClaimOptions, now: number, tokens: number): Promise<DueEntry[]> {
	if (tokens <= 0) return [];
	const by = keyTime(now + 1);
	const offers: Array<{ origin: string; items: HeadItem[]; gapped: boolean }> = [];
	let found = 0;
	for await (const origin of places.ready.origins(pad(by))) {
		const room = options.perHost - leases.count(origin);
		if (room <= 0) continue;
		const [host] = await places.hosts([origin]);
		if (!host || (host.g > 0 && (host.c ?? -Infinity) + host.g > now)) continue;
		// An origin with a gap gives one URL per gap.
		const items = (await places.keys.unclaimed(origin, Math.min(room, tokens - found, host.g > 0 ? 1 : Infinity), READ_AHEAD)).filter((item) => item.due < by);
		if (items.length === 0) continue;
		offers.push({ origin, items, gapped: host.g > 0 });
		found += items.length;
		if (found >= tokens) break;
	}
	offers.sort((a, b) => a.items[0]!.due - b.items[0]!.due);
	const entries = offers.flatMap(({ origin, items }) => items.map((item) => lease(leases, origin, item, undefined, now + options.leaseMs)));
	await places.claimedAt(
		offers.filter((offer) => offer.gapped).map((offer) => offer.origin),
		now,
	);
	return entries;
}

/**
 * `DueQueue.claimAhead` on the LevelDB schedule: the URLs due soonest and not claimed, of
 * the first origins in `ready` order (those ready now are there for their claimed URLs,
 * or have no room), each whose `notBefore` has come; perHost and gaps hold.
 *
 * @example
 * const entries = await claimAhead(places, leases, options, now, 3);
 */
export async function claimAhead(places: LevelPlaces, leases: Leases, options: ClaimOptions, now: number, tokens: number): Promise<DueEntry[]> {
	if (tokens <= 0) return [];
	const origins: string[] = [];
	for await (const origin of places.ready.origins(undefined, AHEAD_ORIGINS + leases.origins)) origins.push(origin);
	const hosts = await places.hosts(origins);
	const offers: Array<{ origin: string; item: HeadItem; place: Place; gapped: boolean }> = [];
	for (let i = 0; i < origins.length; i++) {
		const origin = origins[i]!;
		const host = hosts[i];
		if (!host || (host.g > 0 && (host.c ?? -Infinity) + host.g > now)) continue;
		const room = Math.min(tokens, host.g > 0 ? 1 : options.perHost - leases.count(origin));
		if (room <= 0) continue;
		const items = await places.keys.unclaimed(origin, Math.min(room + READ_AHEAD, 100), 0);
		const read = await places.urls.getMany(items.map((item) => item.url));
		let offered = 0;
		for (let k = 0; k < items.length && offered < room; k++) {
			const place = read[k];
			if (!place || (place.n !== undefined && place.n > now)) continue;
			offers.push({ origin, item: items[k]!, place, gapped: host.g > 0 });
			offered++;
		}
	}
	offers.sort((a, b) => a.item.due - b.item.due);
	const taken = offers.slice(0, tokens);
	await places.claimedAt([...new Set(taken.filter((offer) => offer.gapped).map((offer) => offer.origin))], now);
	return taken.map(({ origin, item, place }) => lease(leases, origin, item, place.n, now + options.leaseMs));
}

function lease(leases: Leases, origin: string, item: HeadItem, notBefore: number | undefined, until: number): DueEntry {
	const token = leases.take(item.url, origin, item.due, item.bin, until);
	return { url: item.url, origin, due: item.due, rate: binRate(item.bin), notBefore, token };
}
