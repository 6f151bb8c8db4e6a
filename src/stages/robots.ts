import { defer, identity, type MonoTypeOperatorFunction } from 'rxjs';
import { mergeAsync } from '../base/flow/merge-async.js';
import { PARK_WINDOWS } from '../base/flow/valve.js';
import { probeTarget } from '../net/http/target.js';
import { createRobotsGate, type GateAnswer, type RobotsGateDeps } from '../net/robots/gate.js';
import type { Task } from '../domain/task/types.js';
import { positiveInteger } from '../base/util/checks.js';
import { OptionError } from '../base/errors/index.js';

export interface RobotsStageOptions {
	/** `ignore` turns the stage off (a user's own sites). */
	robots: 'obey' | 'ignore';
	/** The product token robots.txt groups are matched against. */
	agent: string;
	maxCrawlDelayMs: number;
	timeoutMs: number;
	/** Tasks handled at once (most wait for their origin's robots.txt). */
	highWater: number;
}

/**
 * Obeys robots.txt (RFC 9309) before anything is sent for a URL: a URL its origin's
 * robots.txt disallows gets the verdict `robots`, and one whose robots.txt cannot be had
 * (or asks for a Crawl-delay over the cap) gets `deferred`. Neither is changed, and
 * neither carries a record to commit: the next run checks them again. A `deferred`
 * because robots.txt could not be had carries robots.txt's error (the run did not check
 * the URL; the exit status says so); one by Crawl-delay does not. The
 * origin's robots.txt is fetched once per run (see net/robots/gate.ts); its Crawl-delay is
 * set on the limiter. Sits after `due`, so URLs not due cost no robots.txt fetch.
 *
 * @example
 * tasks$.pipe(lookup({ book }, store), due(...), robots({ robots: 'obey', agent: 'revisit', ... }, deps), probe(...))
 */
export function robots(options: RobotsStageOptions, deps: RobotsGateDeps): MonoTypeOperatorFunction<Task> {
	if (options.robots === 'ignore') return identity;
	if (options.robots !== 'obey') throw new OptionError('robots', `Expected \`robots\` to be obey or ignore, got \`${String(options.robots)}\``);
	const concurrency = positiveInteger('highWater', options.highWater) * (1 + PARK_WINDOWS);
	return (source) =>
		defer(() => {
			// One gate per run: each origin's robots.txt is fetched once, whatever the URLs' order.
			const gate = createRobotsGate(deps, options);
			return source.pipe(
				mergeAsync((task) => {
					if (task.skip || task.url === undefined || task.verdict || task.origin === undefined) return undefined;
					const target = probeTarget(task.url, task.record);
					// Once the origin's robots.txt is in hand (every URL but its first few), the task passes at once.
					const now = gate.checkNow(target, task.origin);
					if (now) return void judged(task, now);
					const origin = task.origin;
					return (signal) => gate.check(target, origin, signal).then((answer) => judged(task, answer));
				}, concurrency),
			);
		});
}

/**
 * The task with the gate's answer: as it was when allowed, else with the verdict
 * `robots` or `deferred` (and its error, if robots.txt failed) and nothing to commit.
 */
function judged(task: Task, answer: GateAnswer): Task {
	if (answer.verdict === 'allow') return task;
	task.verdict = { url: task.url!, changed: false, reason: answer.verdict };
	if (answer.error !== undefined) task.verdict.error = answer.error;
	task.next = undefined;
	if (answer.notice !== undefined) task.notice = answer.notice;
	return task;
}
