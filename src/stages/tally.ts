import { defer, tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../domain/task/types.js';
import { judgedKnown, type ChurnScale } from './churn-guard.js';

/**
 * Counts, per origin, the known URLs a candidates sweep judged (errors aside) and how
 * many of them it passed on as candidates, and reports the running figures after each.
 * The fetch that follows sees only the candidates; with these figures its churn guard
 * judges churn over every URL probed (see `churnGuard`'s `scale`).
 *
 * @example
 * const figures = new Map<string, ChurnScale>();
 * tasks$.pipe(compare(...), tally((origin, counted) => figures.set(origin, counted)))
 */
export function tally(onCount: (origin: string, figures: ChurnScale) => void): MonoTypeOperatorFunction<Task> {
	return (source) =>
		defer(() => {
			const hosts = new Map<string, ChurnScale>();
			return source.pipe(
				tap((task) => {
					if (!judgedKnown(task)) return;
					const origin = task.origin!;
					const before = hosts.get(origin);
					const figures = { probed: (before?.probed ?? 0) + 1, passedOn: (before?.passedOn ?? 0) + (task.verdict!.reason === 'candidate' ? 1 : 0) };
					hosts.set(origin, figures);
					onCount(origin, figures);
				}),
			);
		});
}
