import type { Writable } from 'node:stream';
import type { MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../../domain/task/types.js';
import type { Clock } from '../../domain/task/clock.js';

/** What a sink may use: the run's stdout writer and process edges, and its clock. */
export interface SinkContext {
	/** Writes to standard output; resolves once the OS has the bytes. Calls may overlap: texts land in call order. */
	out(text: string): Promise<void>;
	/** Where a command sink's own output goes. */
	stdout: Writable;
	stderr: Writable;
	env: NodeJS.ProcessEnv;
	clock: Clock;
}

/**
 * A pipeline sink: an operator that writes the tasks it wants and passes every task on
 * only after its write, so the commit after the sinks never records what was not written.
 */
export type Sink = (context: SinkContext) => MonoTypeOperatorFunction<Task>;

/** Diagnostics are printed once per run, not once per sink. */
export const quiet = (): void => {};

/** A task a feed tells of (the Atom and webhook sinks): a judged change, not bad input and not an error. */
export const isChange = (task: Task): boolean => !task.skip && task.verdict?.changed === true && task.verdict.reason !== 'error';

/**
 * A change a feed or notification tells of: a first sighting (`new`) only when `withNew`,
 * so that the first run of a new store does not send every URL it lists.
 *
 * @example
 * isTold(task, false) // false for a `new` verdict
 */
export const isTold = (task: Task, withNew: boolean): boolean => isChange(task) && (withNew || task.verdict!.reason !== 'new');
