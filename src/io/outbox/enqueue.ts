import { randomBytes } from 'node:crypto';
import { map, type MonoTypeOperatorFunction } from 'rxjs';
import { RECORD_VERSION, type Delivery } from '../../store/model/types.js';
import type { Task } from '../../domain/task/types.js';
import type { OutboxTarget } from './targets.js';

/** A process's part of its delivery keys: 8 hex digits. */
export const newRunId = (): string => randomBytes(4).toString('hex');

/**
 * The run id in a delivery key (`TARGET/WHEN-RUN-SEQ`): which process made it.
 *
 * @example
 * runOfKey('3f2a…/0001767225600000-9c1d2e3f-00000007') // '9c1d2e3f'
 */
export const runOfKey = (key: string): string | undefined => key.slice(key.indexOf('/') + 1).split('-')[1];

/**
 * Gives each change its pending deliveries, one per target that tells it, for the commit
 * after to write in the batch of the change's record (`Task.deliveries`): the check goes
 * on at once, and the delivery worker (worker.ts) sends them from the store. Synchronous:
 * a target that is down or hung holds no check. `queued` hears of each target given one.
 * Keys are `TARGET/WHEN-RUN-SEQ`: a target's deliveries list in the order they were made,
 * and two processes (or a restart within a millisecond) never write the same key.
 *
 * @example
 * tasks$.pipe(enqueue(outboxTargets(feeds), { queued: (id) => worker.queued(id) }), commit({}, store))
 */
export function enqueue(
	targets: readonly OutboxTarget[],
	options: { queued?(target: string): void; now?(): number; run?: string } = {},
): MonoTypeOperatorFunction<Task> {
	const run = options.run ?? newRunId();
	const now = options.now ?? Date.now;
	let seq = 0;
	// Never backwards, so that a clock set back does not put a change before one made earlier.
	let last = 0;
	return map((task) => {
		const telling = targets.filter((target) => target.tells(task));
		if (telling.length === 0) return task;
		last = Math.max(last, now());
		const when = String(last).padStart(13, '0');
		const deliveries = telling.map((target) => {
			const value: Delivery = { v: RECORD_VERSION, target: target.id, shown: target.shown, at: last, payload: target.payload(task, last) };
			return { key: `${target.id}/${when}-${run}-${String(seq++).padStart(8, '0')}`, value };
		});
		for (const target of telling) options.queued?.(target.id);
		return { ...task, deliveries: [...(task.deliveries ?? []), ...deliveries] };
	});
}
