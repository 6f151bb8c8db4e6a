import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import got from 'got';
import { bufferTime, concatMap, filter, from, Observable } from 'rxjs';
import { PipelineError } from '../errors/index.js';
import type { Task } from '../types.js';
import { VERSION } from '../version.js';
import { isTold, type Sink } from './sink.js';

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
	// A deadline on each phase and on the whole exchange: a receiver that drips its answer cannot hold the run.
	const client = got.extend({ timeout: { lookup: 5_000, connect: 5_000, response: 10_000, request: 10_000 }, retry: { limit: 0 }, throwHttpErrors: false, headers: { 'user-agent': `revisit/${VERSION}`, 'content-type': 'application/json' } });
	const post = async (payload: unknown, signal: AbortSignal) => {
		const body = JSON.stringify(payload);
		const headers: Record<string, string> = options.secret ? { 'x-revisit-signature': `sha256=${createHmac('sha256', options.secret).update(body).digest('hex')}` } : {};
		let problem = '';
		for (let attempt = 0; attempt <= retries; attempt++) {
			if (attempt > 0) await sleep(delay * 2 ** (attempt - 1), undefined, { signal });
			try {
				const response = await client.post(options.url, { body, headers, signal });
				if (response.statusCode >= 200 && response.statusCode < 300) return;
				problem = `answered ${response.statusCode}`;
			} catch (error) {
				if (signal.aborted) throw error;
				problem = (error as Error).message;
			}
		}
		throw new PipelineError('SINK_FAILED', `webhook ${new URL(options.url).origin}: ${problem} after ${retries + 1} attempts; the changes not delivered will be reported again`);
	};
	const entry = (task: Task) => ({ verdict: task.verdict, ...(task.diff ? { diff: task.diff } : {}) });
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
								await post(batch === 1 ? entry(group[0]!) : { changes: group.map(entry) }, controller.signal);
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
