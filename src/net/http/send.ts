import { setTimeout as sleep } from 'node:timers/promises';
import type { Got } from 'got';
import type { ProbeResult } from '../../domain/task/types.js';
import type { Clock } from '../../domain/task/clock.js';
import { HELD_AFTER_MS, type Limiter } from './limiter.js';
import type { BodyMode, Method } from './request.js';
import { retryDelay } from './retry-delay.js';
import { inProcess, type Transport, type Unless } from './transport.js';

export interface SendDeps {
	http: Got;
	limiter: Limiter;
	clock: Clock;
	random: () => number;
	/** Where attempts are sent from; this process (with `http`) when absent. */
	transport?: Transport | undefined;
}

export interface RetryPolicy {
	retries: number;
	retryDelayMs: number;
	maxRetryAfterMs: number;
}

/** What to send: `headers` may be a function, called once when the first attempt gets its slot. */
export interface Outgoing {
	method: Method;
	url: string;
	/** The URL's origin, when the caller knows it already: the limiter's key. */
	origin?: string | undefined;
	headers: Record<string, string> | (() => Record<string, string>);
	bodyMode?: BodyMode;
	/**
	 * Called (at most once per attempt) when the request is held up by its own host: queued
	 * behind a host that has started nothing for a while, or waiting a second or more to retry.
	 */
	held?: (() => void) | undefined;
	/** A GET whose body is not read when the answer carries these validators (see transport.ts). */
	unless?: Unless | undefined;
	/** A follow-up of a request already answered (an audit, a form check): it goes ahead of its host's queue. */
	followUp?: boolean | undefined;
	/** The origin the user's secret headers may go to, when not the URL's own (see AttemptSpec). */
	secretsTo?: string | undefined;
}

// One in-process transport per deps object (a run's), not one per request.
const inProcessByDeps = new WeakMap<SendDeps, Transport>();
function inProcessFor(deps: SendDeps): Transport {
	let transport = inProcessByDeps.get(deps);
	if (transport === undefined) {
		// Read through deps at each call, as before: a test may swap its clock or random.
		transport = inProcess(
			deps.http,
			() => deps.clock.now(),
			() => deps.random(),
		);
		inProcessByDeps.set(deps, transport);
	}
	return transport;
}

/**
 * One request, retried on network errors, 5xx and 429. Each attempt takes a limiter
 * slot; the wait between attempts takes none, so a host that asks us to back off
 * holds up nobody else. An attempt that finds the process out of file descriptors
 * waits for one within its slot, uncounted (see net/http/descriptor-wait.ts).
 *
 * @example
 * const result = await send(deps, policy, { method: 'GET', url, headers }, signal);
 */
export async function send(deps: SendDeps, policy: RetryPolicy, outgoing: Outgoing, signal: AbortSignal): Promise<ProbeResult> {
	const { method, url, headers, bodyMode = 'hash' } = outgoing;
	const origin = outgoing.origin ?? new URL(url).origin;
	let fixed = typeof headers === 'function' ? undefined : headers;
	const transport = deps.transport ?? inProcessFor(deps);
	for (let attempt = 1; ; attempt++) {
		const outcome = await deps.limiter.run(
			origin,
			// Headers given as a function are decided when the slot opens, on what is known by then.
			(sent) => {
				if (!transport.reportsSent) sent();
				return transport.attempt(
					{
						method,
						url,
						headers: (fixed ??= (headers as () => Record<string, string>)()),
						bodyMode,
						unless: outgoing.unless,
						...(outgoing.secretsTo ? { secretsTo: outgoing.secretsTo } : {}),
					},
					signal,
					sent,
				);
			},
			signal,
			outgoing.held,
			outgoing.followUp,
		);
		if (!outcome.retryable || attempt > policy.retries) return outcome.result;
		const delay = retryDelay({
			attempt,
			retryAfter: outcome.retryAfterHeader,
			baseMs: policy.retryDelayMs,
			maxRetryAfterMs: policy.maxRetryAfterMs,
			now: deps.clock.now(),
			random: deps.random(),
		});
		if (delay === undefined) {
			const message = `Retry-After ${outcome.retryAfterHeader} is beyond the ${policy.maxRetryAfterMs / 1000}s cap`;
			return { ...outcome.result, error: { code: outcome.result.error!.code, message } };
		}
		if (delay >= HELD_AFTER_MS) outgoing.held?.();
		await sleep(delay, undefined, { signal });
	}
}
