import { setTimeout as sleep } from 'node:timers/promises';
import type { Got } from 'got';
import { mergeMap, Observable, of, type MonoTypeOperatorFunction } from 'rxjs';
import type { Limiter } from '../http/limiter.js';
import { attemptGet, conditionalHeaders, type Attempt } from '../http/request.js';
import { retryDelay } from '../http/retry-delay.js';
import type { Clock, ProbeResult, Task } from '../types.js';
import { nonNegativeInteger, positiveInteger } from '../util/options.js';

export interface ProbeDeps {
	http: Got;
	limiter: Limiter;
	clock: Clock;
	/** Uniform in [0, 1); injected so jitter is reproducible in tests. */
	random: () => number;
}

export interface ProbeOptions {
	/** Accept-Encoding pinned for the run; stored ETags from another encoding are not sent. */
	acceptEncoding: string;
	/** Retries after the first attempt, on network errors, 5xx and 429. */
	retries?: number;
	/** Base of the exponential backoff, in ms. */
	retryDelayMs?: number;
	/** Longest Retry-After honoured, in ms; longer ones end in an error verdict. */
	maxRetryAfterMs?: number;
	/** Tasks handled at once (waiting for a slot or in a request); bounds memory, not connections. */
	highWater?: number;
}

/**
 * Sends each task's conditional GET (If-None-Match / If-Modified-Since from the stored
 * record) through the limiter and attaches the result. Retries wait outside the
 * concurrency slots. Unsubscribing aborts requests in flight.
 *
 * @example
 * tasks$.pipe(probe({ http, limiter, clock, random: Math.random }, { acceptEncoding: 'gzip' }))
 */
export function probe(deps: ProbeDeps, options: ProbeOptions): MonoTypeOperatorFunction<Task> {
	const retries = nonNegativeInteger('retries', options.retries ?? 2);
	const baseMs = nonNegativeInteger('retryDelayMs', options.retryDelayMs ?? 1000);
	const maxRetryAfterMs = nonNegativeInteger('maxRetryAfterMs', options.maxRetryAfterMs ?? 60_000);
	const highWater = positiveInteger('highWater', options.highWater ?? 4096);
	const { acceptEncoding } = options;

	const probeOne = async (task: Task, signal: AbortSignal): Promise<Task> => {
		const record = task.record;
		const live = record && record.status >= 200 && record.status < 300 ? record : undefined;
		const target = live?.permanent && live.finalUrl ? live.finalUrl : task.url!;
		const headers = conditionalHeaders(live);
		if (live && live.encoding !== undefined && live.encoding !== acceptEncoding) delete headers['if-none-match'];
		const origin = new URL(target).origin;
		// Straight to the end of a permanent chain: the chain is still permanent unless this request was redirected again (temporarily).
		const shortcut = (result: ProbeResult): ProbeResult =>
			target !== task.url && result.finalUrl === target ? { ...result, permanent: true } : result;

		for (let attempt = 1; ; attempt++) {
			const outcome: Attempt = await deps.limiter.run(
				origin,
				() => attemptGet(deps.http, target, headers, signal, deps.clock.now),
				signal,
			);
			if (!outcome.retryable || attempt > retries) return { ...task, probe: shortcut(outcome.result) };
			const delay = retryDelay({
				attempt,
				retryAfter: outcome.retryAfterHeader,
				baseMs,
				maxRetryAfterMs,
				now: deps.clock.now(),
				random: deps.random(),
			});
			if (delay === undefined) {
				const error = { code: outcome.result.error!.code, message: `Retry-After ${outcome.retryAfterHeader} is beyond the ${maxRetryAfterMs / 1000}s cap` };
				return { ...task, probe: { ...outcome.result, error } };
			}
			await sleep(delay, undefined, { signal });
		}
	};

	return mergeMap(
		(task) =>
			task.skip || task.url === undefined
				? of(task)
				: new Observable<Task>((subscriber) => {
						const controller = new AbortController();
						probeOne(task, controller.signal).then(
							(result) => {
								subscriber.next(result);
								subscriber.complete();
							},
							(error: unknown) => {
								if (!controller.signal.aborted) subscriber.error(error);
							},
						);
						return () => controller.abort();
					}),
		highWater,
	);
}
