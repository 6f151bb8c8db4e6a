import type { MonoTypeOperatorFunction } from 'rxjs';
import { learnNoise, maskedHash, MAX_PATTERNS } from '../content/noise.js';
import { mergeAsync } from '../flow/merge-async.js';
import { send, type RetryPolicy, type SendDeps } from '../http/send.js';
import { probeTarget } from '../http/target.js';
import type { Task } from '../types.js';

/**
 * `--learn-noise`: a URL seen for the first time, or whose content changed, is fetched a
 * second time at once. What differs between the two back-to-back answers is noise by
 * definition (content/noise.ts): its patterns are stored with the record and left out
 * of the content hash from then on. When the noise explains the whole change, the
 * verdict turns to unchanged (`same-content`); a real edit elsewhere is still reported,
 * in the run it happens. The second fetch is a follow-up of the first: it goes ahead of
 * its host's queue and takes a slot like any request.
 *
 * @example
 * pipe(compare(options, clock), learnNoiseStage(deps, { ...retry, concurrency: 24 }))
 */
export function learnNoiseStage(
	deps: SendDeps,
	options: RetryPolicy & { concurrency: number; learns?: ((url: string) => boolean) | undefined },
	onFirstNoise?: (origin: string) => void,
): MonoTypeOperatorFunction<Task> {
	const learns = options.learns ?? (() => true);
	const wanted = (task: Task) =>
		!task.skip && task.verdict?.changed === true && task.probe?.content?.text !== undefined && task.next !== undefined && task.url !== undefined && learns(task.url);
	const learnOne = async (task: Task, signal: AbortSignal): Promise<Task> => {
		const first = task.probe!.content!.text!;
		const target = probeTarget(task.url!, task.record);
		const again = await send(deps, options, { method: 'GET', url: target, origin: task.origin, headers: {}, bodyMode: 'hash', followUp: true }, signal);
		task.noiseFetched = true;
		const second = again.content?.text;
		if (second === undefined) return task;
		const learnt = learnNoise(first, second);
		if (learnt.length === 0) return task;
		// The newest patterns win a place when a page keeps teaching more than a page's worth.
		const patterns = [...new Set([...(task.record?.noise ?? []), ...learnt])].slice(-MAX_PATTERNS);
		const hash = maskedHash(first, patterns);
		if (task.record?.noise === undefined && task.origin !== undefined) onFirstNoise?.(task.origin);
		task.next!.noise = patterns;
		if (task.next!.content) task.next!.content = { ...task.next!.content, hash };
		const before = task.record?.content;
		if (task.verdict!.reason === 'new-body' && before !== undefined && before.rules === task.next!.content?.rules && before.hash === hash) {
			task.verdict = { ...task.verdict!, changed: false, reason: 'same-content' };
		}
		return task;
	};
	return mergeAsync((task, signal) => (wanted(task) ? learnOne(task, signal) : undefined), options.concurrency);
}
