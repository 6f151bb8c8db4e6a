import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RATE_BINS, rateBin, type ClaimOptions, type DueEntry, type QueueClock } from '../../src/store/model/due.js';
import type { ValidatorStore } from '../../src/store/model/types.js';

/** A schedule clock that stands still at `t` (scale 0) unless moved: `at(t)` gives a clock reading t now. */
export const stillAt = (t: number): QueueClock => ({ at0: t, wall0: Date.now(), scale: 0 });

const entry = (url: string, due: number, origin = 'http://a.test', rate = 1): DueEntry => ({ url, origin, due, rate });
const many: ClaimOptions = { max: 100, perHost: 100, leaseMs: 60_000, rate: 1e6, burst: 1e6 };
const urls = (claim: { entries: DueEntry[] }): string[] => claim.entries.map((e) => e.url);

/** How a backend may differ. */
export interface DueContractOptions {
	/**
	 * Whether opening the schedule again takes back the claims left in it (default true):
	 * so on LevelDB, which one process holds. A shared store (Redis) can't tell a killed
	 * process's claims from a live one's: they come back when their lease runs out.
	 */
	reopenReturnsClaims?: boolean;
	/**
	 * Whether the rate is paced per shard of the schedule, each at its share (Redis
	 * Cluster): each shard holding URLs may then let one check more go at once than the
	 * burst allows, the rate over time being the same.
	 */
	pacedPerShard?: boolean;
	/** Whether claims carry tokens that `done` and `release` check (DueEntry.token): the backends that do pass true, and run the cases below. */
	tokens?: boolean;
	/** Whether a shared schedule gives an origin's place under perHost back when a claim's requests are over (`answered`), before its `done`. */
	answered?: boolean;
}

/**
 * The contract every store's watch schedule runs (store/model/due.ts), as `storeContract`
 * does for the stores: `open` gives a fresh store; `reopen` the same store again (a
 * restart), closing the first.
 */
export function dueQueueContract(
	name: string,
	open: () => Promise<{ store: ValidatorStore; reopen(): Promise<ValidatorStore>; cleanup(): Promise<void> }>,
	options: DueContractOptions = {},
): void {
	describe(`${name} (DueQueue contract)`, () => {
		let store: ValidatorStore;
		let reopen: () => Promise<ValidatorStore>;
		let cleanup: () => Promise<void>;
		beforeEach(async () => {
			({ store, reopen, cleanup } = await open());
		});
		afterEach(async () => {
			await store.close();
			await cleanup();
		});

		it('claims only URLs due by now, earliest first', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u3', 900), entry('u1', 100), entry('u4', 2000), entry('u2', 500)]);
			const claim = await queue.claim(many);
			expect(claim.now).toBe(1000);
			expect(urls(claim)).toEqual(['u1', 'u2', 'u3']);
			expect(urls(await queue.claim(many))).toEqual([]);
		});

		it('a claimed URL is not claimed again until done, and done puts it back at its new time', async () => {
			let queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 100)]);
			expect(urls(await queue.claim(many))).toEqual(['u1']);
			await queue.done([entry('u1', 1500)]);
			expect(urls(await queue.claim(many))).toEqual([]);
			queue = await store.dueQueue(stillAt(1600));
			expect(urls(await queue.claim(many))).toEqual(['u1']);
		});

		it('holds at most perHost claims per origin, and spreads a claim over origins', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('a1', 1), entry('a2', 2), entry('a3', 3), entry('b1', 4, 'http://b.test'), entry('b2', 5, 'http://b.test')]);
			const first = await queue.claim({ ...many, perHost: 1 });
			expect(urls(first).sort()).toEqual(['a1', 'b1']);
			expect(urls(await queue.claim({ ...many, perHost: 1 }))).toEqual([]);
			await queue.done([entry('a1', 5000)]);
			expect(urls(await queue.claim({ ...many, perHost: 1 }))).toEqual(['a2']);
		});

		it("spaces an origin's claims by its gap", async () => {
			const queue = await store.dueQueue({ at0: 1000, wall0: Date.now(), scale: 1 });
			await queue.gap('http://a.test', 400);
			await queue.put([entry('a1', 1), entry('a2', 2)]);
			expect(urls(await queue.claim(many))).toEqual(['a1']);
			await queue.done([entry('a1', 1e9)]);
			expect(urls(await queue.claim(many))).toEqual([]);
			await new Promise((resolve) => setTimeout(resolve, 450));
			expect(urls(await queue.claim(many))).toEqual(['a2']);
		});

		it('spaces claims to the rate, with a burst saved up at most', async () => {
			const queue = await store.dueQueue({ at0: 1000, wall0: Date.now(), scale: 1 });
			await queue.put(Array.from({ length: 50 }, (_, i) => entry(`u${i}`, i)));
			const rate = { ...many, rate: 0.01, burst: 3 };
			const first = (await queue.claim(rate)).entries.length;
			expect(first).toBeGreaterThanOrEqual(1);
			expect(first).toBeLessThanOrEqual(4);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			const later = (await queue.claim(rate)).entries.length;
			// 10 slots a second, at most 3 saved before the first claim.
			expect(first + later).toBeGreaterThanOrEqual(8);
			expect(first + later).toBeLessThanOrEqual(15);
		});

		it('a lease that runs out returns its URL; release returns it at once with its due time', async () => {
			const queue = await store.dueQueue({ at0: 1000, wall0: Date.now(), scale: 1 });
			await queue.put([entry('u1', 1), entry('u2', 2)]);
			expect(urls(await queue.claim({ ...many, leaseMs: 300 }))).toEqual(['u1', 'u2']);
			await queue.release([{ url: 'u2' }]);
			expect(urls(await queue.claim(many))).toEqual(['u2']);
			await new Promise((resolve) => setTimeout(resolve, 350));
			expect(urls(await queue.claim(many))).toEqual(['u1']);
		});

		it.runIf(options.reopenReturnsClaims ?? true)('claims a killed process left return when the schedule is opened again', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 100), entry('u2', 200), entry('u3', 5000)]);
			expect(urls(await queue.claim({ ...many, max: 1 }))).toEqual(['u1']);
			store = await reopen();
			const again = await store.dueQueue(stillAt(1000));
			expect(urls(await again.claim(many))).toEqual(['u1', 'u2']);
			expect((await again.stats()).size).toBe(3);
		});

		it.runIf(!(options.reopenReturnsClaims ?? true))(
			'claims a killed process left return when their lease runs out, not when the schedule is opened again',
			async () => {
				const clock = { at0: 1000, wall0: Date.now(), scale: 1 };
				const queue = await store.dueQueue(clock);
				await queue.put([entry('u1', 100), entry('u2', 200), entry('u3', 5000)]);
				expect(urls(await queue.claim({ ...many, max: 1, leaseMs: 300 }))).toEqual(['u1']);
				store = await reopen();
				const again = await store.dueQueue(clock);
				expect(urls(await again.claim(many))).toEqual(['u2']);
				expect((await again.stats()).claimed).toBe(2);
				await new Promise((resolve) => setTimeout(resolve, 350));
				expect(urls(await again.claim(many))).toEqual(['u1']);
				expect((await again.stats()).size).toBe(3);
			},
		);

		it.runIf(options.answered ?? false)(
			"answered gives a claim's place under perHost back once, before its done: the claim holds until done, which gives back nothing more",
			async () => {
				const queue = await store.dueQueue(stillAt(1000));
				await queue.put([entry('u1', 100), entry('u2', 200), entry('u3', 300), entry('u4', 400)]);
				const one = { ...many, perHost: 1 };
				const [first] = (await queue.claim(one)).entries;
				expect(first).toMatchObject({ url: 'u1' });
				expect(urls(await queue.claim(one))).toEqual([]);
				// u1's request is over: its origin's place goes back, u1 stays claimed.
				await queue.answered!([{ url: 'u1', token: first!.token }]);
				const [second] = (await queue.claim(one)).entries;
				expect(second).toMatchObject({ url: 'u2' });
				expect((await queue.stats()).claimed).toBe(2);
				// Told twice, or told again by its done, the place is given back once: u2 holds the one place.
				await queue.answered!([{ url: 'u1', token: first!.token }]);
				await queue.done([{ ...first!, due: 5000 }]);
				expect(urls(await queue.claim(one))).toEqual([]);
				expect((await queue.stats()).claimed).toBe(1);
				// A claim not answered gives its place back at its end, as before.
				await queue.release([{ url: 'u2', token: second!.token }]);
				expect(urls(await queue.claim(one))).toEqual(['u2']);
			},
		);

		it.runIf(options.tokens ?? false)("a done or release under a claim's token does nothing once the lease ran out and the URL was claimed again", async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 100), entry('u2', 200)]);
			const [first, other] = (await queue.claim({ ...many, leaseMs: 50 })).entries;
			expect(first).toMatchObject({ url: 'u1', token: expect.any(String) });
			// Past the lease: another process claims u1 and u2 again, under new tokens.
			const later = await store.dueQueue(stillAt(2000));
			const [again, otherAgain] = (await later.claim(many)).entries;
			expect(again).toMatchObject({ url: 'u1', token: expect.any(String) });
			expect(again!.token).not.toBe(first!.token);
			// The first claims' late done and release end nothing: u1 and u2 stay claimed, nothing is put back.
			await later.done([{ ...first!, due: 1500 }]);
			await later.release([{ url: 'u2', token: other!.token }]);
			expect(urls(await later.claim(many))).toEqual([]);
			expect((await later.stats()).claimed).toBe(2);
			// The claims' own tokens end them: u1 at its new time, u2 at the one it had.
			await later.done([{ ...again!, due: 1800 }]);
			await later.release([{ url: 'u2', token: otherAgain!.token }]);
			expect((await later.stats()).claimed).toBe(0);
			expect(urls(await later.claim(many))).toEqual(['u2', 'u1']);
		});

		it.runIf(options.tokens ?? false)('a done or release under a claim that ran out does nothing: the claim made since holds', async () => {
			const queue = await store.dueQueue({ at0: 1000, wall0: Date.now(), scale: 1 });
			await queue.put([entry('u1', 1), entry('u2', 2)]);
			const first = (await queue.claim({ ...many, leaseMs: 200 })).entries;
			expect(urls({ entries: first })).toEqual(['u1', 'u2']);
			await new Promise((resolve) => setTimeout(resolve, 250));
			const second = (await queue.claim(many)).entries;
			expect(urls({ entries: second })).toEqual(['u1', 'u2']);
			for (const [i, claimed] of second.entries()) {
				expect(claimed.token).toBeDefined();
				expect(claimed.token).not.toBe(first[i]!.token);
			}
			// The first claims' verdicts come late: they end nothing, and move nothing.
			await queue.done([{ ...entry('u1', 1e9), token: first[0]!.token }]);
			await queue.release([{ url: 'u2', token: first[1]!.token }]);
			expect(urls(await queue.claim(many))).toEqual([]);
			expect((await queue.stats()).claimed).toBe(2);
			// The second claims' end them: u1 due again when its done says, u2 at once.
			await queue.done([{ ...entry('u1', 60_000), token: second[0]!.token }]);
			await queue.release([{ url: 'u2', token: second[1]!.token }]);
			expect(urls(await queue.claim(many))).toEqual(['u2']);
			expect((await queue.stats()).next).toBe(60_000);
		});

		it('remove takes URLs out, a claimed one too: done then puts nothing back', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 1), entry('u2', 2)]);
			expect(urls(await queue.claim({ ...many, max: 1 }))).toEqual(['u1']);
			await queue.remove(['u1', 'u2', 'never']);
			await queue.done([entry('u1', 10)]);
			expect(urls(await queue.claim(many))).toEqual([]);
			expect(await queue.has(['u1', 'u2'])).toEqual([false, false]);
			expect((await queue.stats()).size).toBe(0);
		});

		it('put moves a URL (once, whatever its origin), and keeps a claimed one claimed', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 5000), entry('u2', 50)]);
			await queue.put([entry('u1', 10)]);
			expect(urls(await queue.claim({ ...many, max: 1 }))).toEqual(['u1']);
			await queue.put([entry('u1', 20)]);
			expect(urls(await queue.claim(many))).toEqual(['u2']);
			expect((await queue.stats()).size).toBe(2);
		});

		it('keeps a histogram of rates, moved as URLs are', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 1, 'http://a.test', 1), entry('u2', 1, 'http://a.test', 1), entry('u3', 1, 'http://b.test', 0.01)]);
			await queue.put([entry('u2', 5, 'http://a.test', 0.01)]);
			await queue.remove(['u1']);
			const bins = await queue.rateBins();
			expect(bins).toHaveLength(RATE_BINS);
			expect(bins[rateBin(0.01)]).toBe(2);
			expect(bins.reduce((a, b) => a + b, 0)).toBe(2);
		});

		it('stats: size, backlog, claimed, hosts and the next due time', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('a1', 1), entry('a2', 900), entry('a3', 3000), entry('b1', 2000, 'http://b.test')]);
			await queue.claim({ ...many, max: 1 });
			expect(await queue.stats()).toEqual({ size: 4, backlog: 1, claimed: 1, hosts: 2, next: 900, depths: [{ origin: 'http://a.test', depth: 1 }] });
		});

		it('sweepOut takes out what a source listed before and no longer lists', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 1), entry('u2', 1), entry('u3', 1)]);
			await queue.mark('list.txt', ['u1', 'u2', 'u3'], 1);
			await queue.mark('other.txt', ['u3'], 1);
			await queue.mark('list.txt', ['u1', 'u3'], 2);
			expect(await queue.sweepOut('list.txt', 2)).toEqual(['u2']);
			expect(await queue.has(['u1', 'u2', 'u3'])).toEqual([true, false, true]);
			expect(await queue.sweepOut('list.txt', 2)).toEqual([]);
		});

		it('turns to send: one holder at a time per origin, the next a gap after the last was sent', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			const [a, b] = ['http://a.test', 'http://b.test'];
			expect(await queue.turn(a, 60_000, 30_000, 'p1')).toBe(0);
			// Asked again (a reply lost and the script sent again): still its own.
			expect(await queue.turn(a, 60_000, 30_000, 'p1')).toBe(0);
			// Another holder waits; another origin does not.
			const waiting = await queue.turn(a, 60_000, 30_000, 'p2');
			expect(waiting).toBeGreaterThan(0);
			expect(waiting).toBeLessThanOrEqual(60_000);
			expect(await queue.turn(b, 60_000, 30_000, 'p2')).toBe(0);
			// Sent: the next turn is a gap after it, for anyone.
			await queue.sent(a, 60_000, 'p1');
			const after = await queue.turn(a, 60_000, 30_000, 'p2');
			expect(after).toBeGreaterThan(59_000);
			expect(after).toBeLessThanOrEqual(60_000);
			expect(await queue.turn(a, 60_000, 30_000, 'p1')).toBeGreaterThan(59_000);
		});

		it('a turn never said sent frees the origin after its hold', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			expect(await queue.turn('http://a.test', 10, 50, 'killed')).toBe(0);
			expect(await queue.turn('http://a.test', 10, 50, 'p2')).toBeGreaterThan(0);
			await new Promise((resolve) => setTimeout(resolve, 80));
			expect(await queue.turn('http://a.test', 10, 50, 'p2')).toBe(0);
			// A late `sent` of the old holder does not end the new one's turn, but does space the next.
			await queue.sent('http://a.test', 10, 'killed');
			expect(await queue.turn('http://a.test', 10, 50, 'p3')).toBeGreaterThan(0);
		});

		it('sweepOut keeps a URL another source still lists, and takes it out once none does', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('u1', 1), entry('u2', 1)]);
			await queue.mark('a.txt', ['u1', 'u2'], 1);
			await queue.mark('b.txt', ['u2'], 1);
			await queue.mark('a.txt', ['u1'], 2);
			expect(await queue.sweepOut('a.txt', 2)).toEqual([]);
			expect(await queue.has(['u1', 'u2'])).toEqual([true, true]);
			await queue.mark('b.txt', ['u1'], 2);
			expect(await queue.sweepOut('b.txt', 2)).toEqual(['u2']);
			expect(await queue.has(['u1', 'u2'])).toEqual([true, false]);
		});

		it('claimAhead takes the earliest URLs not yet due, passing over those whose notBefore has not come', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([
				entry('u1', 900),
				entry('u2', 2000),
				{ ...entry('u3', 1500), notBefore: 1200 },
				entry('u4', 3000),
				{ ...entry('u5', 2500), notBefore: 1000 },
			]);
			expect(urls(await queue.claim(many))).toEqual(['u1']);
			const ahead = await queue.claimAhead({ ...many, max: 3 });
			expect(ahead.now).toBe(1000);
			expect(urls(ahead)).toEqual(['u2', 'u5', 'u4']);
			expect(urls(await queue.claimAhead(many))).toEqual([]);
			expect((await queue.stats()).claimed).toBe(4);
			// done puts URLs back with their new notBefore; a later clock lets u3 go, and u1, but not u2.
			await queue.done([{ ...entry('u2', 4500), notBefore: 4000 }, { ...entry('u1', 5000), notBefore: 1100 }, entry('u4', 3000), entry('u5', 2500)]);
			const later = await store.dueQueue(stillAt(1300));
			expect(urls(await later.claim(many))).toEqual([]);
			expect(urls(await later.claimAhead(many))).toEqual(['u3', 'u5', 'u4', 'u1']);
			expect(urls(await later.claimAhead(many))).toEqual([]);
		});

		it('claimAhead holds perHost and the rate', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			await queue.put([entry('a1', 2000), entry('a2', 2100), entry('b1', 2200, 'http://b.test'), entry('b2', 2300, 'http://b.test')]);
			expect(urls(await queue.claimAhead({ ...many, perHost: 1 }))).toEqual(['a1', 'b1']);
			expect(urls(await queue.claimAhead({ ...many, perHost: 1 }))).toEqual([]);
			const paced = await store.dueQueue({ at0: 1000, wall0: Date.now(), scale: 1 });
			await paced.put(Array.from({ length: 50 }, (_, i) => entry(`u${i}`, 1e9 + i, 'http://c.test')));
			const first = (await paced.claimAhead({ ...many, rate: 0.01, burst: 3 })).entries.length;
			expect(first).toBeGreaterThanOrEqual(1);
			// Paced per shard, a2 and b2 (left by perHost 1 above) may go at once beside c's burst.
			expect(first).toBeLessThanOrEqual(options.pacedPerShard ? 6 : 4);
			// The burst is spent: a second claim at once gets one more slot at most. Both counted together,
			// as a loaded machine (or a Cluster, whose shards answer apart) may split the burst between the two.
			const second = (await paced.claimAhead({ ...many, rate: 0.01, burst: 3 })).entries.length;
			expect(first + second).toBeLessThanOrEqual((options.pacedPerShard ? 6 : 4) + 1);
		});

		it("claimAhead spaces an origin's claims by its gap", async () => {
			const queue = await store.dueQueue({ at0: 1000, wall0: Date.now(), scale: 1 });
			await queue.gap('http://a.test', 400);
			await queue.put([entry('a1', 1e9), entry('a2', 2e9)]);
			expect(urls(await queue.claimAhead(many))).toEqual(['a1']);
			await queue.done([entry('a1', 3e9)]);
			expect(urls(await queue.claimAhead(many))).toEqual([]);
			await new Promise((resolve) => setTimeout(resolve, 450));
			expect(urls(await queue.claimAhead(many))).toEqual(['a2']);
		});

		it('keeps a saved value for a restart to read back', async () => {
			const queue = await store.dueQueue(stillAt(1000));
			expect(await queue.saved('threshold')).toBeUndefined();
			await queue.save('threshold', { correction: -0.5, position: 0.25 });
			store = await reopen();
			const again = await store.dueQueue(stillAt(1000));
			expect(await again.saved('threshold')).toEqual({ correction: -0.5, position: 0.25 });
		});

		it("runs on the schedule's clock: scaled from the wall clock", async () => {
			const queue = await store.dueQueue({ at0: 0, wall0: Date.now(), scale: 1000 });
			await queue.put([entry('u1', 200_000)]);
			expect(urls(await queue.claim(many))).toEqual([]);
			await new Promise((resolve) => setTimeout(resolve, 300));
			expect(urls(await queue.claim(many))).toEqual(['u1']);
			expect(await queue.now()).toBeGreaterThan(250_000);
		});
	});
}
