/** How far ahead (wall ms) a shard is passed over on what its last reply said: another process's put or done there is seen within this. */
const HINT_MS = 100;
/** How often (wall ms) the shards' sizes, which set their shares of the rate, are read again. */
const SHARES_MS = 2_000;

/** What a claim round's reply says of its shard, in the schedule's clock. */
export interface RoundHint {
	now: number;
	/** The shard's earliest ready time (an origin may be asked); undefined when it has nothing unclaimed. */
	next: number | undefined;
	/** Schedule ms until its next pacing slot (0: there is one now). */
	wait: number;
}

/**
 * Which shards of a sharded schedule a process's claim rounds go to, and each one's share
 * of the fleet's rate (store/redis/due/queue.ts). Rounds start one shard further on each time
 * (rotation), and pass over a shard whose last reply said it has nothing to claim yet or
 * no pacing slot left, for at most HINT_MS. A shard's share of `--rate` is its share of
 * the schedule's URLs, read every SHARES_MS (at once after this process puts URLs in a
 * shard it saw empty; another's, within SHARES_MS); the shares add up to 1, and an empty
 * shard is not asked.
 *
 * @example
 * const rounds = new ShardRounds(16, (ms) => ms);
 * for (const shard of rounds.order(false)) { ... rounds.heard(shard, hint); }
 */
export class ShardRounds {
	readonly #count: number;
	readonly #wallMs: (scheduleMs: number) => number;
	/** Per shard: wall time before which a claim finds nothing due there. */
	readonly #readyAt: number[];
	/** Per shard: wall time before which it has no pacing slot. */
	readonly #slotAt: number[];
	#cursor = 0;
	#shares: number[];
	#sharesAt = -Infinity;

	constructor(count: number, wallMs: (scheduleMs: number) => number) {
		this.#count = count;
		this.#wallMs = wallMs;
		this.#readyAt = new Array<number>(count).fill(0);
		this.#slotAt = new Array<number>(count).fill(0);
		this.#shares = new Array<number>(count).fill(1 / count);
	}

	/** The shards to try, in this round's order: those with a slot, and (unless `ahead`, where URLs not yet due count) something due. */
	order(ahead: boolean): number[] {
		const wall = Date.now();
		const start = this.#cursor;
		this.#cursor = (this.#cursor + 1) % this.#count;
		const shards: number[] = [];
		for (let step = 0; step < this.#count; step++) {
			const shard = (start + step) % this.#count;
			if (this.#count === 1 || (this.#shares[shard]! > 0 && this.#slotAt[shard]! <= wall && (ahead || this.#readyAt[shard]! <= wall))) shards.push(shard);
		}
		return shards;
	}

	/** Notes what a round's reply said of `shard`. */
	heard(shard: number, hint: RoundHint): void {
		const wall = Date.now();
		const later = (ms: number): number => (ms > 0 ? wall + Math.min(HINT_MS, this.#wallMs(ms)) : 0);
		this.#slotAt[shard] = later(hint.wait);
		this.#readyAt[shard] = hint.next === undefined ? wall + HINT_MS : later(hint.next - hint.now);
	}

	/** The shard changed here (a put, done, release): the next round looks at it again. */
	touched(shard: number): void {
		this.#readyAt[shard] = 0;
		// A shard that was empty has a share again: read them before the next round.
		if (this.#shares[shard] === 0) this.#sharesAt = -Infinity;
	}

	/** Whether the shares are due to be read again. */
	get stale(): boolean {
		return this.#count > 1 && Date.now() - this.#sharesAt > SHARES_MS;
	}

	/** Sets the shares from the shards' sizes (URLs in each). */
	sized(sizes: readonly number[]): void {
		const total = sizes.reduce((sum, size) => sum + size, 0);
		this.#shares = sizes.map((size) => (total === 0 ? 1 / this.#count : size / total));
		this.#sharesAt = Date.now();
	}

	/** Shard `shard`'s share of the fleet's rate. */
	share(shard: number): number {
		return this.#shares[shard]!;
	}
}
