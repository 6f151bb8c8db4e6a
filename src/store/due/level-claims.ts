import { randomBytes } from 'node:crypto';
import type { ClaimRef } from './types.js';

/** A claim: whose URL, at which `at` key's due time, until when its lease holds, and its token. */
export interface Lease {
	origin: string;
	due: number;
	until: number;
	token: string;
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
 * const token = leases.take('https://a.test/x', 'https://a.test', 100, 60_100);
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

	/** Claims `url` (its `at` key due at `due`) until `until`; returns the claim's token. */
	take(url: string, origin: string, due: number, until: number): string {
		const token = `${this.#prefix}.${(++this.#issued).toString(36)}`;
		this.#byUrl.set(url, { origin, due, until, token });
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
	moved(url: string, origin: string, due: number): void {
		const lease = this.#byUrl.get(url);
		if (!lease) return;
		if (lease.origin !== origin) {
			this.#drop(lease.origin);
			this.#perOrigin.set(origin, this.count(origin) + 1);
		}
		this.#byUrl.set(url, { ...lease, origin, due });
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
