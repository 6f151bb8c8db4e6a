import { tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../domain/task/types.js';
import { recordsFor } from '../outputs/warc/records.js';
import type { WarcWriter } from '../outputs/warc/writer.js';

/**
 * Writes each judged URL's WARC records (see outputs/warc/records.ts) before the task goes on,
 * and records in the state to commit where its payload is now archived. It sits before
 * the commit, so a URL's state is committed only after its records are in the file.
 * A write that fails (disk full) ends the run: an archive with holes that the store
 * says are filled is worse than a stopped run.
 *
 * @example
 * pipe(sweepStages(deps, options), writeWarc(writer), emit({}, outputs))
 */
export function writeWarc(writer: WarcWriter): MonoTypeOperatorFunction<Task> {
	return tap((task) => {
		if (task.skip || !task.next) return;
		const { records, archived } = recordsFor(task);
		writer.write(records);
		if (archived) task.next.warc = archived;
	});
}
