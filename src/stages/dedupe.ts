import { createHash, hash } from 'node:crypto';
import { defer, identity, map, tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../domain/task/types.js';

/** Decisions that leave a URL unchecked for the rest of the run: its key can be let go. */
const UNCHECKED: ReadonlySet<Task['skip']> = new Set(['not-due', 'later', 'signal', 'filtered']);

/**
 * Marks a task whose normalised URL was already seen in this run as `duplicate`, so it
 * is probed once (in place: a task belongs to one stage at a time). Keys are kept as
 * 96-bit digests (12 one-byte characters) rather than whole URLs: about 62 bytes per
 * URL (measured), so 200,000 URLs cost ~12 MB.
 *
 * `decide` is the run's stages that may leave a URL unchecked (filter, lookup, due, the
 * signal gate, the budget): a URL they skip (not due, left for later, skipped on a
 * signal, filtered out) is forgotten at once, so the run keeps keys only of the URLs it
 * may still check, O(budget) in a budgeted run however long its input. The same URL
 * later in the input is then judged again, and skipped again for the same reason (the
 * budget's bar only rises), so it counts under that reason rather than as a duplicate;
 * a URL that is checked is remembered for the whole run and never probed twice.
 *
 * @example
 * tasks$.pipe(dedupe(pipe(lookup({}, store), due({}, clock), budget({ budget: 1000, verifyEveryMs: 0 }, { clock }))))
 */
export function dedupe(decide: MonoTypeOperatorFunction<Task> = identity): MonoTypeOperatorFunction<Task> {
	return (source) =>
		defer(() => {
			// Per subscription, not per stage: a resubscribed pipeline starts a fresh run.
			// Each key's value is the line that holds it: only that task lets it go.
			const seen = new Map<string, number>();
			return source.pipe(
				map((task): Task => {
					if (task.skip || task.url === undefined) return task;
					const key = digestKey(task.url);
					if (seen.has(key)) task.skip = 'duplicate';
					else seen.set(key, task.line);
					return task;
				}),
				decide,
				tap((task) => {
					if (!UNCHECKED.has(task.skip) || task.url === undefined) return;
					const key = digestKey(task.url);
					if (seen.get(key) === task.line) seen.delete(key);
				}),
			);
		});
}

// One-shot hashing (Node ≥ 20.12) skips the Hash object: a third of the cost per URL.
const oneShot: (data: string) => string =
	typeof hash === 'function' ? (data) => hash('sha1', data, 'binary') : (data) => createHash('sha1').update(data).digest('binary');

/**
 * 96 bits of the URL's SHA-1 as a 12-character latin1 string. A slice shorter than 13
 * characters is a copy in V8, so the 20-character digest is not kept alive.
 */
function digestKey(url: string): string {
	return oneShot(url).slice(0, 12);
}
