import { concat, defer, identity, ignoreElements, Observable, tap, type OperatorFunction, type Subscription } from 'rxjs';
import { createValve, type Valve } from '../base/flow/valve.js';
import type { ChurnDecision } from '../stages/churn-guard.js';
import { commit } from '../stages/commit.js';
import { runKey } from '../store/model/run-key.js';
import type { InputLine, Task } from '../domain/task/types.js';
import type { StoreOperation } from '../store/model/types.js';
import { openSweepDeps, type ResourceOptions } from './resources.js';
import { countTask, runRecord, type Summary } from './summary.js';
import { addToDetail, createRunDetail, detailOperations } from './run-detail.js';
import { liveWriter, type LiveOptions } from './live-run.js';
import { createTextShelf, keepText } from '../stages/keep-text.js';
import { heldBack } from '../stages/when.js';
import { compileCondition } from '../domain/condition/compile.js';
import { collectTexts } from '../store/text-gc.js';
import type { SweepDeps } from './sweep.js';
import type { CheckOptions, SweepOptions } from './sweep-options.js';

/** What a run does, between opening the store and closing it. */
export interface RunPlan {
	/** The run's limits (the sweep phase's for a crawl); `highWater` bounds lines in flight. */
	options: CheckOptions;
	/** Input lines, each taken from `valve` before it is emitted (see `readLines`). */
	input(deps: SweepDeps, valve: Valve): Observable<InputLine>;
	/** Input lines to tasks whose output is written: every stage but the commit. */
	build(deps: SweepDeps): OperatorFunction<InputLine, Task>;
	/** The churn guard held back a host's changes, on these figures (see `describeChurn`). */
	onBlocked?(origin: string, decision: ChurnDecision): void;
	/** `build` places `deps.keepText` itself, before printing (composeRun does); otherwise it runs after `build`. */
	placesKeepText?: boolean;
	/** Write the run-history row when the run completes (default true). */
	history?: boolean;
	/** Once the row is stored (and the store still open): a pipeline file's report pages. */
	afterRun?(store: SweepDeps['store']): Promise<void>;
	/** The commit's batches: when one takes the tasks passed so far, and when it is written (see `commit`). */
	commit?: { flushing(): void; written(): void; write?: ((operations: StoreOperation[]) => Promise<void>) | undefined; maxWaitMs?: number } | undefined;
	/** Write the row (`unfinished`) with the commits as the run goes, and show it live (a watch's hour; see live-run.ts). */
	live?: LiveOptions | undefined;
}

/**
 * The life of one run over opened resources, shared by every command and the library:
 * input through the valve, the stages, the commit after output, the summary counts,
 * and when the input is done the run-history row. Emits each task once it has been
 * written and queued for commit (a subscriber's `next` runs before its commit).
 *
 * @example
 * const summary = createSummary();
 * runTasks(deps, { options, input: (d, valve) => readLines(stdin, valve), build: (d) => pipe(sweepStages(d, options), emit({}, out)) }, summary).subscribe();
 */
export function runTasks(deps: SweepDeps, plan: RunPlan, summary: Summary): Observable<Task> {
	return defer(() => {
		const started = deps.clock.now();
		const valve = createValve(plan.options.highWater);
		// What `revisit report` reads of the run: the text kept for diffs, and the changed and failed URLs.
		const shelf = createTextShelf(deps.store);
		const detail = createRunDetail(started, plan.options.rules);
		const keepsText = plan.history !== false && plan.options.keepTextBytes > 0 && plan.options.keepTextTotalBytes > 0;
		// A change the run's --when holds back is still kept as a version of the page, marked held.
		const held = plan.options.when === undefined ? undefined : heldBack(compileCondition(plan.options.when, 'when'));
		const keeping = keepText({ keep: keepsText, versions: plan.options.keepVersions, now: () => deps.clock.now(), held }, { store: deps.store, shelf });
		const row = () => {
			const value = runRecord(summary, started, deps.clock.now());
			if (plan.options.when !== undefined) value.when = plan.options.when;
			return value;
		};
		const live = plan.live && plan.history !== false ? liveWriter({ started, row, detail }, plan.live) : undefined;
		if (live) plan.live?.started?.(live.run);
		// The run's own deps: the caller's object is left as it was given.
		const runDeps: SweepDeps = {
			...deps,
			keepText: keeping,
			hooks: {
				release: () => valve.release(),
				acquire: () => (valve.tryAcquire() ? undefined : valve.acquire()),
				park: () => valve.park(),
				onBlocked: (origin, decision) => {
					summary.blockedHosts.push(origin);
					plan.onBlocked?.(origin, decision);
				},
			},
		};
		const tasks = plan.input(runDeps, valve).pipe(
			plan.build(runDeps),
			plan.placesKeepText ? identity : keeping,
			commit(
				{
					extra: () => [...shelf.drain(), ...deps.book.drain(), ...(live?.operations() ?? [])],
					flushing: plan.commit?.flushing,
					written: plan.commit?.written,
					...(plan.commit?.write === undefined ? {} : { write: plan.commit.write }),
					...(plan.commit?.maxWaitMs === undefined ? {} : { maxWaitMs: plan.commit.maxWaitMs }),
				},
				deps.store,
			),
			tap((task) => {
				if (task.parked) valve.unpark();
				else if (!task.creditReturned) valve.release();
				countTask(summary, task);
				if (plan.history !== false) addToDetail(detail, task);
			}),
		);
		const finish = defer(async () => {
			summary.elapsedMs = deps.clock.now() - started;
			if (plan.history === false) return;
			const value = row();
			if (shelf.bytes !== undefined)
				value.textBytes =
					shelf.bytes > plan.options.keepTextTotalBytes ? (await collectTexts(deps.store, { maxBytes: plan.options.keepTextTotalBytes })).bytes : shelf.bytes;
			await deps.store.batch([...(await detailOperations(deps.store, detail)), { type: 'putRun', key: runKey(started), value }]);
			live?.end();
			await plan.afterRun?.(deps.store);
		}).pipe(ignoreElements());
		return concat(tasks, finish);
	});
}

/**
 * Opens the resources when subscribed, runs `use` over them, and closes them when it
 * completes, fails or is unsubscribed (a store passed in is never closed here).
 *
 * @example
 * withResources({ store: '.revisit' }, options, (deps) => runTasks(deps, plan, summary)).subscribe(...)
 */
export function withResources<T>(resources: ResourceOptions, options: SweepOptions, use: (deps: SweepDeps) => Observable<T>): Observable<T> {
	return new Observable<T>((subscriber) => {
		let subscription: Subscription | undefined;
		let close: (() => Promise<void>) | undefined;
		let done = false;
		openSweepDeps(resources, options).then(
			(opened) => {
				close = opened.close;
				if (done) return void close();
				subscription = use(opened.deps).subscribe({
					next: (value) => subscriber.next(value),
					error: (error: unknown) => void opened.close().finally(() => subscriber.error(error)),
					complete: () =>
						opened.close().then(
							() => subscriber.complete(),
							(error: unknown) => subscriber.error(error),
						),
				});
			},
			(error: unknown) => subscriber.error(error),
		);
		return () => {
			done = true;
			if (subscription && !subscription.closed) {
				subscription.unsubscribe();
				void close?.();
			}
		};
	});
}
