import { createHash } from 'node:crypto';
import { defer, map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../types.js';

/**
 * Marks a task whose normalised URL was already seen in this run as `duplicate`, so it
 * is probed once. Keys are kept as 96-bit digests (16 characters) rather than whole
 * URLs: about 60 bytes per distinct URL (measured), so 200,000 distinct URLs cost ~12 MB.
 *
 * @example
 * tasks$.pipe(dedupe())
 */
export function dedupe(): MonoTypeOperatorFunction<Task> {
	return (source) =>
		defer(() => {
			// Per subscription, not per stage: a resubscribed pipeline starts a fresh run.
			const seen = new Set<string>();
			return source.pipe(
			map((task): Task => {
				if (task.skip || task.url === undefined) return task;
				// From the first 12 bytes, not a slice of the whole digest string: V8 would keep the 43-character parent alive.
				const key = createHash('sha256').update(task.url).digest().subarray(0, 12).toString('base64url');
				if (seen.has(key)) return { ...task, skip: 'duplicate' };
				seen.add(key);
				return task;
			}),
			);
		});
}
