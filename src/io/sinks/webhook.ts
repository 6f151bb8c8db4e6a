import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import got from 'got';
import { bufferTime, concatMap, filter, from, Observable } from 'rxjs';
import { PipelineError } from '../../base/errors/index.js';
import type { Task } from '../../domain/task/types.js';
import { VERSION } from '../../base/util/version.js';
import { withDeadline } from '../notify/deadline.js';
import { isTold, type Sink } from './sink.js';
import { safeJson } from '../../base/util/visible.js';

export interface WebhookSinkOptions {
	url: string;
	/** Signs each body: `X-Revisit-Signature: sha256=HMAC-SHA256(secret, body)` in hex. */
	secret?: string | undefined;
	/** Changes per POST; 1 (default) posts `{ verdict, diff }`, more post `{ changes: [...] }`. */
	batch?: number | undefined;
	/** Attempts after the first, with backoff from `retryDelayMs` (default 3 and 500 ms). */
	retries?: number | undefined;
	retryDelayMs?: number | undefined;
	/** Also a URL's first sighting (reason `new`); left out by default, so that a new store's first run does not send every URL. */
	new?: boolean | undefined;
}

/**
 * POSTs each change (or each batch of `batch`) as JSON to a receiver, with its diff when
 * there is one, signed when a secret is given, retried with backoff on network errors
 * and non-2xx answers. Tasks pass on only after their delivery succeeded, so the commit
 * after the sink records only delivered changes; a receiver that keeps failing ends the
 * run with SINK_FAILED (exit 1), and the changes it did not take are reported again next run.
 * Tasks wait at most half a second to fill a batch.
 *
 * @example
 * webhookSink({ url: 'https://hooks.example/revisit', secret: process.env.SECRET, batch: 10 })
 */
export function webhookSink(options: WebhookSinkOptions): Sink {
	const batch = options.batch ?? 1;
	const retries = options.retries ?? 3;
	const delay = options.retryDelayMs ?? 500;
	const once = webhookPost(options);
	const post = async (payload: unknown, signal: AbortSignal) => {
		let problem = '';
		for (let attempt = 0; attempt <= retries; attempt++) {
			if (attempt > 0) await sleep(delay * 2 ** (attempt - 1), undefined, { signal });
			try {
				return await once(payload, signal);
			} catch (error) {
				if (signal.aborted) throw error;
				problem = (error as Error).message;
			}
		}
		throw new PipelineError(
			'SINK_FAILED',
			`webhook ${new URL(options.url).origin}: ${problem} after ${retries + 1} attempts; the changes not delivered will be reported again`,
		);
	};
	return () => (source) =>
		source.pipe(
			bufferTime(500, null, Math.max(batch, 64)),
			filter((tasks) => tasks.length > 0),
			concatMap(
				(tasks) =>
					// Unsubscribed (the run stopped by a signal) mid-delivery: the POST and any wait to retry it end at once.
					new Observable<Task[]>((subscriber) => {
						const controller = new AbortController();
						const deliver = async () => {
							const changes = tasks.filter((task) => isTold(task, options.new === true));
							for (let i = 0; i < changes.length; i += batch) {
								const group = changes.slice(i, i + batch);
								await post(batch === 1 ? webhookEntry(group[0]!) : { changes: group.map(webhookEntry) }, controller.signal);
							}
							return tasks;
						};
						deliver().then(
							(done) => {
								subscriber.next(done);
								subscriber.complete();
							},
							(error: unknown) => {
								if (!controller.signal.aborted) subscriber.error(error);
							},
						);
						return () => controller.abort();
					}),
			),
			concatMap((tasks) => from(tasks)),
		);
}

/** What a webhook is sent of one change: `{ verdict, diff }` (a batch posts `{ changes: [...] }` of them). */
export const webhookEntry = (task: Task): { verdict: Task['verdict']; diff?: string } => ({ verdict: task.verdict, ...(task.diff ? { diff: task.diff } : {}) });

/** Longest a webhook POST may take, from its DNS lookup to its answer's last byte (ms). */
const POST_DEADLINE_MS = 10_000;

/**
 * One attempt at POSTing a JSON payload to a webhook, signed when a secret is given: a
 * deadline on each phase and on the whole exchange (a receiver that accepts and never
 * answers, or drips its answer, cannot hold the caller past it), and none past `signal`.
 * Rejects on a network error, a non-2xx answer (`answered 503`) or the deadline.
 *
 * @example
 * await webhookPost({ url: 'https://hooks.example/revisit', secret })({ verdict }, signal)
 */
export function webhookPost(options: Pick<WebhookSinkOptions, 'url' | 'secret'>): (payload: unknown, signal?: AbortSignal) => Promise<void> {
	const client = got.extend({
		timeout: { lookup: 5_000, connect: 5_000, response: POST_DEADLINE_MS, request: POST_DEADLINE_MS },
		retry: { limit: 0 },
		throwHttpErrors: false,
		headers: { 'user-agent': `revisit/${VERSION}`, 'content-type': 'application/json' },
	});
	const origin = new URL(options.url).host;
	return async (payload, outer) => {
		const body = safeJson(payload);
		const headers: Record<string, string> = options.secret
			? { 'x-revisit-signature': `sha256=${createHmac('sha256', options.secret).update(body).digest('hex')}` }
			: {};
		const response = await withDeadline(POST_DEADLINE_MS, origin, outer, (signal) => client.post(options.url, { body, headers, signal }));
		if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`answered ${response.statusCode}`);
	};
}
