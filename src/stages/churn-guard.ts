import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { atLeast, CHURN_SURPRISE } from '../domain/schedule/surprise.js';
import type { Task } from '../domain/task/types.js';
import { OptionError } from '../base/errors/index.js';

/**
 * How a host's URLs were judged before the guard sees them: of `probed` known URLs,
 * `passedOn` came on as candidates (the sample the guard sees); the rest were judged
 * unchanged already.
 */
export interface ChurnScale {
	probed: number;
	passedOn: number;
}

export interface ChurnGuardOptions {
	/** Fraction of a host's known URLs that, changed in one run, blocks the host; 0 turns the guard off. */
	maxChurn: number;
	/** Known URLs of a host to see before deciding. */
	churnMin: number;
	/** Hosts let through (origins or hostnames), or 'all'. */
	accept: readonly string[] | 'all';
	/** Most tasks held across all hosts while undecided; past it the oldest host is let through undecided. */
	maxBuffered?: number;
	/**
	 * Per origin, when the guard sees only a sample of the host's probed URLs (a fetch
	 * after a candidates sweep): the sweep's figures, final or still counting. The sample
	 * is the host's `fetched` tasks, and churn is their changed share times `passedOn`,
	 * over `probed`. Without figures every known URL judged counts, as in a sweep.
	 */
	scale?: ((origin: string) => ChurnScale | undefined) | undefined;
	/**
	 * A known URL's chance of having changed since its last check, as its history predicts
	 * (domain/schedule/surprise.ts: `changeChance`); undefined for a URL without history. Given, a
	 * host whose judged URLs mostly have history is blocked only if its changes are also a
	 * surprise: at least as many had a chance under `surprise`.
	 */
	chance?: ((task: Task) => number | undefined) | undefined;
	/** The surprise level (default `CHURN_SURPRISE`, 1e-3). */
	surprise?: number | undefined;
}

/** What the guard decided for a host, and on what figures. */
export interface ChurnDecision {
	blocked: boolean;
	/** Changed URLs among `probed`: counted, or estimated from the sample when scaled. */
	changed: number;
	/** Known URLs judged (probed, when scaled) when the guard decided. */
	probed: number;
	/** When scaled: the fetched URLs the estimate came from, and how many of them changed. */
	sample?: { changed: number; fetched: number };
	/**
	 * Where the URLs' history judged (`chance`): of the `judged` URLs with a history, how
	 * many changed, how many their rates predicted, and the chance of at least that many.
	 */
	expected?: { judged: number; changed: number; predicted: number; chance: number };
}

export interface ChurnGuardHooks {
	/** The guard decided on a host. */
	onDecision(origin: string, decision: ChurnDecision): void;
	/** A task went into a buffer: give its backpressure credit back so the reader is not starved. */
	release?(): void;
}

interface HostState {
	buffer: Task[];
	/** Known URLs counted (the sample, when scaled), and how many of them changed. */
	seen: number;
	changed: number;
	decided?: 'pass' | 'blocked';
	/** Known URLs judged, sampled or not; of them, the chances of those with a history, and how many of those changed. */
	judged: number;
	chances: number[];
	historyChanged: number;
}

/** A verdict the guard counts: on a URL known before this run, probed, and not an error (robots.txt's `robots` and `deferred` were never probed). */
export const judgedKnown = (task: Task): boolean =>
	task.verdict !== undefined && task.origin !== undefined && !!task.record && !unprobed.has(task.verdict.reason);

const unprobed = new Set(['error', 'robots', 'deferred']);

/**
 * Holds back a host's changes when nearly all its known URLs changed in one run (a
 * template deploy or a block page, not real change). It buffers a host's first
 * `churnMin` verdicts on known URLs, decides, then streams. With `chance`, a share over
 * `maxChurn` blocks only if it is also a surprise: where most judged URLs have a history,
 * the chance that at least as many of those would change, by their own rates, must be
 * under `surprise` (a Poisson binomial tail). So a budgeted run, which checks the URLs
 * most likely to have changed, passes, and a host whose slow pages all change at once
 * does not. A blocked host's changes are
 * neither emitted nor committed (they become `held`), so the next run reports them again.
 *
 * Churn is over the URLs probed in the run, however it is split: where a sweep passed
 * only candidates on (`scale`), a fetched candidate stands for `probed / passedOn` of
 * them, and a host whose candidates are fewer than `maxChurn` of its probed URLs passes
 * at once, with nothing buffered.
 *
 * @example
 * tasks$.pipe(compare(...), churnGuard({ maxChurn: 0.9, churnMin: 20, accept: [] }, { onDecision }))
 * // after `sweep --candidates` found 2900 of 3000 probed: block if >= 2700 are estimated changed
 * fetched$.pipe(churnGuard({ maxChurn: 0.9, churnMin: 20, accept: [], scale: () => ({ probed: 3000, passedOn: 2900 }) }, { onDecision }))
 */
export function churnGuard(options: ChurnGuardOptions, hooks: ChurnGuardHooks): MonoTypeOperatorFunction<Task> {
	const { maxChurn, churnMin, accept, scale, chance } = options;
	const surprise = options.surprise ?? CHURN_SURPRISE;
	const maxBuffered = options.maxBuffered ?? 50_000;
	if (!(maxChurn >= 0 && maxChurn <= 1)) throw new OptionError('maxChurn', `Expected \`maxChurn\` between 0 and 1, got \`${maxChurn}\``);
	if (!Number.isInteger(churnMin) || churnMin < 1) throw new OptionError('churnMin', `Expected \`churnMin\` to be a positive integer, got \`${churnMin}\``);
	if (!(surprise > 0 && surprise < 1)) throw new OptionError('surprise', `Expected \`surprise\` between 0 and 1, got \`${surprise}\``);
	if (maxChurn === 0) return (source) => source;
	const accepted = (origin: string) => accept === 'all' || accept.some((host) => host === origin || host.toLowerCase() === new URL(origin).hostname);
	// Unscaled, what the guard counted is all there is: probed = passed on = seen.
	const figuresOf = (origin: string, state: HostState): ChurnScale => scale?.(origin) ?? { probed: state.seen, passedOn: state.seen };
	const estimate = (state: HostState, figures: ChurnScale): number =>
		figures.passedOn === state.seen ? state.changed : state.seen === 0 ? 0 : (state.changed * figures.passedOn) / state.seen;

	const decide = (origin: string, state: HostState, done: boolean): 'pass' | 'blocked' | undefined => {
		const figures = figuresOf(origin, state);
		// Too few known URLs (so far) to judge.
		if (figures.probed < churnMin) return done ? 'pass' : undefined;
		// Even if every URL passed on changed, fewer than maxChurn of those probed did.
		if (figures.passedOn < maxChurn * figures.probed) return 'pass';
		if (state.seen < churnMin && !done) return undefined;
		if (estimate(state, figures) < maxChurn * figures.probed) return 'pass';
		return (expected(state)?.chance ?? 0) < surprise ? 'blocked' : 'pass';
	};
	// Judged by history when most of the URLs judged have one; otherwise by the share alone.
	const expected = (state: HostState): ChurnDecision['expected'] => {
		if (state.chances.length === 0 || state.chances.length * 2 < state.judged) return undefined;
		const predicted = state.chances.reduce((sum, p) => sum + p, 0);
		return { judged: state.chances.length, changed: state.historyChanged, predicted, chance: atLeast(state.chances, state.historyChanged) };
	};
	const report = (origin: string, state: HostState, blocked: boolean): ChurnDecision => {
		const scaled = scale?.(origin);
		const history = expected(state);
		const judged = history === undefined ? {} : { expected: history };
		if (!scaled) return { blocked, changed: state.changed, probed: state.seen, ...judged };
		return { blocked, changed: Math.round(estimate(state, scaled)), probed: scaled.probed, sample: { changed: state.changed, fetched: state.seen }, ...judged };
	};

	return (source) =>
		new Observable<Task>((subscriber) => {
			const hosts = new Map<string, HostState>();
			let buffered = 0;
			const hold = (task: Task): Task => (task.verdict?.changed ? { ...task, skip: 'held', verdict: undefined, next: undefined } : task);
			const release = (origin: string, state: HostState, decision: 'pass' | 'blocked') => {
				state.decided = decision;
				hooks.onDecision(origin, report(origin, state, decision === 'blocked'));
				buffered -= state.buffer.length;
				for (const task of state.buffer) subscriber.next(decision === 'blocked' ? hold(task) : task);
				state.buffer = [];
			};

			const subscription = source.subscribe({
				next(task) {
					if (!judgedKnown(task)) return subscriber.next(task);
					const origin = task.origin!;
					let state = hosts.get(origin);
					if (!state) {
						hosts.set(origin, (state = { buffer: [], seen: 0, changed: 0, judged: 0, chances: [], historyChanged: 0 }));
						if (accepted(origin)) release(origin, state, 'pass');
					}
					if (state.decided) return subscriber.next(state.decided === 'blocked' ? hold(task) : task);
					// Scaled, a URL judged before the fetch is already in `probed`: not a sample.
					const sampled = task.fetched === true || scale?.(origin) === undefined;
					if (sampled) {
						state.seen++;
						if (task.verdict!.changed) state.changed++;
					}
					state.judged++;
					const p = chance?.(task);
					if (p !== undefined) {
						state.chances.push(p);
						if (task.verdict!.changed) state.historyChanged++;
					}
					const decision = decide(origin, state, false);
					if (decision) {
						release(origin, state, decision);
						return subscriber.next(decision === 'blocked' ? hold(task) : task);
					}
					// Unchanged and not a sample: nothing to hold back, whatever is decided.
					if (!sampled && !task.verdict!.changed) return subscriber.next(task);
					// A line parked by the probe gave its credit back already.
					if (!task.creditReturned && !task.parked) hooks.release?.();
					state.buffer.push({ ...task, creditReturned: true });
					buffered++;
					if (buffered > maxBuffered) {
						const oldest = [...hosts.entries()].find(([, candidate]) => !candidate.decided && candidate.buffer.length > 0);
						if (oldest) release(oldest[0], oldest[1], 'pass');
					}
				},
				error: (error: unknown) => subscriber.error(error),
				complete() {
					// The figures are final now: judge what was seen (a host with too few known URLs passes).
					for (const [origin, state] of hosts) if (!state.decided) release(origin, state, decide(origin, state, true) ?? 'pass');
					subscriber.complete();
				},
			});
			return () => subscription.unsubscribe();
		});
}

/**
 * The stderr line for a host the guard blocked.
 *
 * @example
 * describeChurn('https://a.example', { blocked: true, changed: 20, probed: 20 })
 * // 'https://a.example: 20 of its first 20 known URLs changed'
 */
export function describeChurn(origin: string, decision: Omit<ChurnDecision, 'blocked'>): string {
	const { changed, probed, sample, expected } = decision;
	const share = sample
		? `${origin}: about ${changed} of its first ${probed} known URLs changed (${sample.changed} of ${sample.fetched} fetched)`
		: `${origin}: ${changed} of its first ${probed} known URLs changed`;
	if (!expected) return share;
	return `${share}, where their change rates predicted ${expected.predicted.toFixed(1)} of ${expected.judged}`;
}
