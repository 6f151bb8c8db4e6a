import type { MonoTypeOperatorFunction } from 'rxjs';
import { mergeAsync } from '../base/flow/merge-async.js';
import { send, type RetryPolicy, type SendDeps } from '../net/http/send.js';
import { probeTarget } from '../net/http/target.js';
import type { Task } from '../domain/task/types.js';
import { positiveInteger } from '../base/util/checks.js';

export interface FetchBodiesOptions extends RetryPolicy {
	/** Tasks handled at once; bodies are held in memory until written, so keep it modest. */
	highWater: number;
	/** Which tasks to fetch: all probed-to-be URLs (a `revisit fetch`), or the sweep's candidates (a crawl). */
	only: 'all' | 'candidates';
	/** Origins whose wanted tasks are held (`skip: 'held'`) instead of fetched: the churn guard blocked them. */
	skip?: ((origin: string) => boolean) | undefined;
}

/**
 * Downloads each task's body with an unconditional GET (at the fetch phase's own
 * limits, through its own limiter), keeping the decoded body for `writeBodies`. The
 * task's verdict is cleared so `compare` judges the body against the store.
 *
 * @example
 * candidates$.pipe(fetchBodies({ ...retryPolicy, highWater: 64, only: 'candidates' }, fetchDeps), compare(...), writeBodies(...))
 */
export function fetchBodies(options: FetchBodiesOptions, deps: SendDeps): MonoTypeOperatorFunction<Task> {
	const highWater = positiveInteger('highWater', options.highWater);
	const wanted = (task: Task): boolean =>
		!task.skip && task.url !== undefined && (options.only === 'all' ? task.verdict === undefined : task.verdict?.reason === 'candidate');

	const fetchOne = async (task: Task, signal: AbortSignal): Promise<Task> => {
		const target = probeTarget(task.url!, task.record);
		const origin = task.origin ?? new URL(target).origin;
		const probe = await send(deps, options, { method: 'GET', url: target, origin, headers: {}, bodyMode: 'keep' }, signal);
		const { verdict: _cleared, ...rest } = task;
		return { ...rest, origin, probe, fetched: true };
	};
	return mergeAsync((task) => {
		if (!wanted(task)) return undefined;
		if (options.skip && task.origin !== undefined && options.skip(task.origin)) {
			// In place, like the guard's own hold: nothing is downloaded, shown or committed; the next run reports it.
			task.skip = 'held';
			task.verdict = undefined;
			return undefined;
		}
		return (signal) => fetchOne(task, signal);
	}, highWater);
}
