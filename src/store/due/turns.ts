/**
 * Turns to send at an origin, for a schedule one process holds (LevelDB, memory): the
 * same contract as the Redis schedule's, in a map. See `DueQueue.turn`.
 *
 * @example
 * const turns = new LocalTurns();
 * await turns.turn('https://a.test', 250, 30_000, 't1'); // 0: yours
 * await turns.sent('https://a.test', 250, 't1'); // the next turn 250 ms from now
 */
export class LocalTurns {
	/** Per origin: the turn's holder and until when it holds (wall ms), and the next send's earliest time. */
	readonly #origins = new Map<string, { holder?: string | undefined; until: number; next: number }>();
	readonly #now: () => number;

	constructor(now: () => number = Date.now) {
		this.#now = now;
	}

	async turn(origin: string, gapMs: number, holdMs: number, token: string): Promise<number> {
		const now = this.#now();
		const state = this.#origins.get(origin) ?? { until: 0, next: 0 };
		if (state.holder !== undefined && state.holder !== token && state.until > now) return Math.max(1, Math.min(gapMs, state.until - now));
		if (state.next > now) return state.next - now;
		this.#origins.set(origin, { holder: token, until: now + holdMs, next: state.next });
		return 0;
	}

	async sent(origin: string, gapMs: number, token: string): Promise<void> {
		const now = this.#now();
		const state = this.#origins.get(origin) ?? { until: 0, next: 0 };
		const next = Math.max(state.next, now + gapMs);
		this.#origins.set(origin, state.holder === token ? { until: 0, next } : { ...state, next });
	}
}
