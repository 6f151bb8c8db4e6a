import { noteOffer } from '../net/hosts/no-offer.js';
import type { Got } from 'got';
import { identity, pipe, type MonoTypeOperatorFunction, type OperatorFunction } from 'rxjs';
import type { HostBook } from '../net/hosts/book.js';
import type { Limiter } from '../net/http/limiter.js';
import type { Transport } from '../net/http/transport.js';
import { rememberCandidateSweep } from '../net/hosts/candidate-sweep.js';
import { budget } from '../stages/budget.js';
import { signalGate } from '../stages/signal-gate.js';
import { signalScore } from '../stages/signal-score.js';
import { compare } from '../stages/compare.js';
import { churnGuard, type ChurnDecision, type ChurnScale } from '../stages/churn-guard.js';
import { dedupe } from '../stages/dedupe.js';
import { due } from '../stages/due.js';
import { lookup } from '../stages/lookup.js';
import { compileRules, ruleFor } from '../domain/content/rules.js';
import { learnNoiseStage } from '../stages/learn-noise.js';
import type { LearnOptions } from '../domain/content/noise.js';
import { normalise } from '../stages/normalise.js';
import { robots } from '../stages/robots.js';
import { probe } from '../stages/probe.js';
import { render as renderStage, publicHost, type RenderStageOptions } from '../stages/render.js';
import { compileHeaders } from '../net/http/headers.js';
import type { BrowserCookieData } from '../net/http/cookies.js';
import type { Renderer } from '../net/render/types.js';
import { schedule } from '../stages/schedule.js';
import { tally } from '../stages/tally.js';
import { trust } from '../stages/trust.js';
import { changeChance } from '../domain/schedule/surprise.js';
import type { ValidatorStore } from '../store/model/types.js';
import type { InputLine, Task } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';
import { RENDER_DEFAULTS } from './render-options.js';
import { robotsAgentOf } from './sweep-defaults.js';
import type { CheckOptions, RunScheduleOptions, SweepOptions } from './sweep-options.js';

export interface SweepDeps {
	store: ValidatorStore;
	http: Got;
	limiter: Limiter;
	clock: Clock;
	random: () => number;
	/** Where attempts are sent from (see net/http/transport.ts); this process, with `http`, when absent. */
	transport?: Transport | undefined;
	/** This run's hosts; one book per run. */
	book: HostBook;
	/**
	 * Edge callbacks: a host blocked by the churn guard; a task's backpressure credit
	 * returned early, parked, or taken back (the budget's chosen, when the input ends).
	 */
	hooks?: { onBlocked?(origin: string, decision: ChurnDecision): void; release?(): void; park?(): boolean; acquire?(): Promise<void> | undefined } | undefined;
	/** Chromium, when the run may render (`--render`). */
	renderer?: Renderer | undefined;
	/** The run's cookies (`--cookies`, `--cookie-jar`), put in a rendered page's browser context. */
	cookies?: (() => BrowserCookieData[]) | undefined;
	/**
	 * The run's keep-text stage (stages/keep-text.ts), for a composer to place before what prints and tells, so that a feed entry carries the change's word diff.
	 */
	keepText?: MonoTypeOperatorFunction<Task> | undefined;
}

/** Optional stages a pipeline file can add to a sweep, each at its fixed place. */
export interface SweepExtras {
	/** After dedupe, before lookup: drop URLs (see `stages/filter.ts`). */
	filter?: MonoTypeOperatorFunction<Task> | undefined;
	/** False: no dedupe. A watch checks the same URL again and again in one run; its schedule claims each URL once at a time. */
	dedupe?: boolean | undefined;
}

/**
 * The judging half of a sweep: normalise, dedupe, (filter), lookup, due, budget, probe, compare, schedule,
 * trust, churn-guard. What
 * happens to the verdicts (emit, commit) is the caller's choice; see `cli/commands/sweep.ts`
 * and `api/sweep.ts`. Commit with `extra: deps.book.drain` so host health is stored too.
 * A candidates sweep has no guard (candidates are not changes yet): it leaves each host's
 * probed and passed-on counts on its record instead, for the fetch's guard.
 *
 * @example
 * readLines(stdin, valve).pipe(sweepStages(deps, options), emit({}, targets), commit({ extra: deps.book.drain }, store))
 */
export function sweepStages(deps: SweepDeps, options: SweepOptions, extras: SweepExtras = {}): OperatorFunction<InputLine, Task> {
	return pipe(judgeStages(deps, options, extras), options.candidates ? tally(rememberCandidateSweep(deps.book)) : guard(deps, options));
}

/**
 * A sweep up to its verdicts, without the churn guard: what `sweepStages`, a crawl's
 * sweep phase and a watch share. A watch's options have no run schedule: no TTL, budget
 * or adaptive interval (its own schedule claims a URL when it is due).
 *
 * @example
 * pipe(judgeStages(deps, options), guard(deps, options))
 */
export function judgeStages(deps: SweepDeps, options: CheckOptions & Partial<RunScheduleOptions>, extras: SweepExtras = {}): OperatorFunction<InputLine, Task> {
	const once = extras.dedupe === false ? (deciding: MonoTypeOperatorFunction<Task>) => deciding : dedupe;
	return pipe(
		normalise(),
		// Around the stages that may leave a URL unchecked: it keeps only the keys of URLs still to check.
		once(
			pipe(
				extras.filter ?? identity,
				lookup({ book: deps.book }, deps.store),
				due({ ttlMs: options.ttlMs }, deps.clock),
				signalGate({ verifyEveryMs: options.trust.verifyEveryMs }, deps),
				budget(
					{ budget: options.budget, hostBudget: options.hostBudget, verifyEveryMs: options.trust.verifyEveryMs },
					{
						clock: deps.clock,
						release: () => deps.hooks?.release?.(),
						acquire: deps.hooks?.acquire && (() => deps.hooks!.acquire!()),
						reload: (urls) => deps.store.getMany(urls),
						onPastBound: (counts) => notePastBound(deps.book, counts),
					},
				),
			),
		),
		robotsStage(deps, options),
		probe({ ...options, keepBody: deps.renderer !== undefined }, deps),
		deps.renderer ? renderStage(renderOptions(options, deps.cookies), { ...deps, renderer: deps.renderer }) : identity,
		compare(
			{
				acceptEncoding: options.acceptEncoding,
				verifyEveryMs: options.trust.verifyEveryMs,
				hostNoise: (origin) => deps.book.get(origin).noise,
				keepTextBytes: options.keepTextBytes,
				offerRead: (origin, url, found) => noteOffer(deps.book, origin, url, found),
			},
			deps.clock,
		),
		learning(deps, options),
		pipe(signalScore(deps), schedule(options)),
		trust(options.trust, deps),
	);
}

/**
 * The churn guard wired to the run's host book (blocked hosts show in `revisit stats`)
 * and the edge's hooks. `scale` gives a host's probed and passed-on counts where the
 * guard sees only its candidates (a fetch after a candidates sweep).
 *
 * @example
 * pipe(compare(...), guard(deps, options))
 */
export function guard(
	deps: Pick<SweepDeps, 'book' | 'clock' | 'hooks'>,
	options: Pick<SweepOptions, 'maxChurn' | 'churnMin' | 'acceptChurn'>,
	scale?: (origin: string) => ChurnScale | undefined,
	onBlocked?: (origin: string) => void,
): MonoTypeOperatorFunction<Task> {
	const chance = (task: Task): number | undefined => (task.record ? changeChance(task.record, deps.clock.now()) : undefined);
	return churnGuard(
		{ maxChurn: options.maxChurn, churnMin: options.churnMin, accept: options.acceptChurn, scale, chance },
		{
			onDecision: (origin, decision) => {
				const host = deps.book.get(origin);
				if (decision.blocked) {
					onBlocked?.(origin);
					deps.book.set(origin, { ...host, blocked: { at: deps.clock.now(), changed: decision.changed, probed: decision.probed } });
					deps.hooks?.onBlocked?.(origin, decision);
				} else if (host.blocked) {
					const { blocked: _cleared, ...rest } = host;
					deps.book.set(origin, rest);
				}
			},
			release: () => deps.hooks?.release?.(),
		},
	);
}

/**
 * The robots.txt stage for a run's options (identity with `robots: 'ignore'`): it sends
 * from this process, whatever the transport, so that a fleet or worker threads fetch each
 * origin's robots.txt once, in the coordinator.
 *
 * @example
 * pipe(lookup(...), robotsStage(deps, options), probe(options, deps))
 */
export function robotsStage(deps: SweepDeps, options: CheckOptions): MonoTypeOperatorFunction<Task> {
	return robots(
		{
			robots: options.robots,
			agent: robotsAgentOf(options),
			maxCrawlDelayMs: options.maxCrawlDelayMs,
			timeoutMs: options.timeoutMs,
			highWater: options.highWater,
		},
		deps,
	);
}

/** What the budget could not verify in time, per host, for `revisit stats`. */
function notePastBound(book: HostBook, counts: ReadonlyMap<string, number>): void {
	for (const [origin, count] of counts) {
		const { pastBound: _last, ...host } = book.get(origin);
		book.set(origin, count > 0 ? { ...host, pastBound: count } : host);
	}
}

/** One more URL of `origin` has learned noise: `revisit stats` shows the count. */
function countNoisy(book: HostBook, origin: string): void {
	const host = book.get(origin);
	book.set(origin, { ...host, noisy: (host.noisy ?? 0) + 1 });
}

/**
 * The learn-noise stage when `--learn-noise` is on, or some rule learns (for its URLs
 * only). What a URL's rule selected (`select`, `pointer`) is never learned whole; the
 * visible text of a `select` rule is not learned at all.
 */
function learning(deps: SweepDeps, options: CheckOptions): MonoTypeOperatorFunction<Task> {
	const rules = compileRules(options.rules ?? []);
	if (!options.learnNoise && !rules.some((rule) => rule.learn)) return identity;
	const learns = (url: string): LearnOptions | false => {
		const rule = ruleFor(rules, url);
		if (!options.learnNoise && rule?.learn !== true) return false;
		const chose = rule?.select !== undefined || rule?.pointer !== undefined;
		return { protectTop: chose, noText: chose && rule?.text === true };
	};
	return learnNoiseStage(
		{ ...options, learns },
		{ ...deps, onFirstNoise: (origin) => countNoisy(deps.book, origin), host: deps.book, now: () => deps.clock.now() },
	);
}

/** The render stage's options from the run's: the rules, `--render*`, `-H` and the cookies, `--deny-private`, robots.txt. */
function renderOptions(options: CheckOptions, cookies: SweepDeps['cookies']): RenderStageOptions {
	const headers = compileHeaders(options.headers ?? []);
	return {
		mode: options.render?.mode ?? 'never',
		rules: compileRules(options.rules ?? []),
		timeoutMs: options.render?.timeoutMs ?? RENDER_DEFAULTS.timeoutMs,
		highWater: options.highWater,
		retries: options.retries,
		retryDelayMs: options.retryDelayMs,
		maxRetryAfterMs: options.maxRetryAfterMs,
		// A secret header goes to the page's own origin only, as along a redirect.
		headers: (url, page) => headers.for(new URL(url), new URL(url).origin === new URL(page).origin),
		cookies,
		allow: options.denyPrivate ? (url) => publicHost(url) : undefined,
		denyPrivate: options.denyPrivate,
		maxBytes: options.maxBodyBytes,
		robots: options.robots === 'obey' ? { agent: robotsAgentOf(options), maxCrawlDelayMs: options.maxCrawlDelayMs, timeoutMs: options.timeoutMs } : undefined,
	};
}
