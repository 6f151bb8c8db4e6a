import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Condition } from '../domain/condition/compile.js';
import { conditionValues } from '../domain/condition/names.js';
import type { Task } from '../domain/task/types.js';

/**
 * Holds each change (a first sight too) to the run's `--when` condition: a change it does
 * not meet becomes `changed: false`, reason `unmet`, and nothing else about it changes.
 * Its record is still committed, so the page's new state is the baseline the next run
 * compares with: the change is never reported, neither now nor later. Errors and
 * unchanged pages pass as they are. Runs after keep-text (for `changed_words`) and before
 * anything is written out.
 *
 * @example
 * tasks$.pipe(keepText({ keep: true }, { store, shelf }), when(compileCondition('price < 40')), emit({}, targets))
 */
export function when(condition: Condition): MonoTypeOperatorFunction<Task> {
	const held = heldBack(condition);
	return map((task) => {
		if (!held(task)) return task;
		task.verdict = { ...task.verdict!, changed: false, reason: 'unmet' };
		return task;
	});
}

/**
 * Whether `condition` holds a task's change back: a change it does not meet. What `when`
 * turns `unmet`, and what keep-text marks a version with before it does (stages/keep-text.ts).
 *
 * @example
 * heldBack(compileCondition('price < 40'))(task) // true for a change to a price of 45
 */
export function heldBack(condition: Condition): (task: Task) => boolean {
	return (task) => task.verdict?.changed === true && !condition.holds(conditionValues(task));
}
