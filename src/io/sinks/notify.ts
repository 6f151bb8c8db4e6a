import { setTimeout as sleep } from 'node:timers/promises';
import { concatMap, Observable, of } from 'rxjs';
import { PipelineError, RevisitError, UsageError } from '../../base/errors/index.js';
import { checkTemplate, messageOf, notifier, type Notifier, type NotifyOptions } from '../notify/index.js';
import type { Task } from '../../domain/task/types.js';
import { isTold, type Sink } from './sink.js';

export interface NotifySinkOptions extends NotifyOptions {
	/** Apprise-style URLs: `mailtos://…`, `ntfy://…`, `discord://…`, `slack://…`, `tgram://…`, `matrix://…`, `json://…`, or any apprise knows. */
	urls: readonly string[];
	/** The body, with `{url}`, `{reason}`, `{price}`, … (see PLACEHOLDERS); default: a short message of its own. */
	template?: string | undefined;
	/** Attempts after the first, with backoff from `retryDelayMs` (default 3 and 500 ms). */
	retries?: number | undefined;
	retryDelayMs?: number | undefined;
	/** Also a URL's first sighting (reason `new`); left out by default, so that a new store's first run does not send every URL. */
	new?: boolean | undefined;
	/** What names these URLs in an error of `checkNotify`: the flag (`--notify`), a pipeline file's sink (`pipeline: /sinks/2`). */
	label?: string | undefined;
}

/**
 * Confirms, sending nothing, that every URL can be sent: those that go through apprise are
 * loaded by its dry run (`Notifier.check`), all at once. A run awaits this before its first
 * request, so that a mistyped scheme stops it at the start rather than at the first change.
 * Rejects with a UsageError that starts with `options.label` (the first refused URL, in order).
 *
 * @example
 * await checkNotify({ urls: ['jsno://me:pw@example.org'], label: '--notify' }) // UsageError: --notify: notify URL jsno://***:***@***: apprise cannot load it …
 */
export async function checkNotify(options: NotifySinkOptions, signal?: AbortSignal): Promise<void> {
	const label = options.label ?? 'notify';
	const checked = await Promise.allSettled(options.urls.map((url) => notifier(url, options).check(signal)));
	const refused = checked.find((result): result is PromiseRejectedResult => result.status === 'rejected');
	if (!refused) return;
	const error = refused.reason as Error;
	throw error instanceof RevisitError ? new UsageError(`${label}: ${error.message}`, { cause: error }) : error;
}

/**
 * Sends a notification of each change to every URL, in order, retried with backoff.
 * Tasks pass on only after every URL took their message, so the commit after the sink
 * records only delivered changes; a URL that keeps failing ends the run with SINK_FAILED
 * (exit 1), and what it did not take is sent again next run (to every URL: delivery is at
 * least once). The URLs are parsed when the sink is built: a malformed one, or one that
 * needs apprise where it is not installed, throws a UsageError there. Messages never show
 * a URL's secrets. Each attempt has the notifier's deadline (`timeoutMs`); a run stopped
 * while a message is under way (the sink unsubscribed) aborts it at once, without retries.
 *
 * @example
 * notifySink({ urls: ['mailtos://me:pw@smtp.example.org?to=me@example.org', 'ntfys://ntfy.sh/prices'] })
 */
export function notifySink(options: NotifySinkOptions): Sink {
	if (options.template !== undefined) checkTemplate(options.template);
	const targets: Notifier[] = options.urls.map((url) => notifier(url, options));
	const retries = options.retries ?? 3;
	const delay = options.retryDelayMs ?? 500;
	const deliver = async (target: Notifier, message: ReturnType<typeof messageOf>, signal: AbortSignal) => {
		let problem = '';
		for (let attempt = 0; attempt <= retries; attempt++) {
			if (attempt > 0) await sleep(delay * 2 ** (attempt - 1), undefined, { signal });
			try {
				return await target.send(message, signal);
			} catch (error) {
				// A stopped run neither retries nor waits: what was not delivered is not committed, and comes again.
				if (signal.aborted) throw error;
				problem = (error as Error).message;
			}
		}
		throw new PipelineError(
			'SINK_FAILED',
			`notify ${target.shown}: ${problem} after ${retries + 1} attempts; the changes not delivered will be reported again`,
		);
	};
	const tell = async (task: Task, signal: AbortSignal): Promise<Task> => {
		const message = messageOf(task, options.template);
		for (const target of targets) await deliver(target, message, signal);
		return task;
	};
	return () =>
		concatMap((task) => {
			if (!isTold(task, options.new === true)) return of(task);
			// Unsubscribed (the run stopped by a signal) while delivering: the delivery is aborted, its connection closed.
			return new Observable<Task>((subscriber) => {
				const controller = new AbortController();
				let pending = true;
				tell(task, controller.signal).then(
					(told) => {
						pending = false;
						subscriber.next(told);
						subscriber.complete();
					},
					(error: unknown) => {
						pending = false;
						subscriber.error(error);
					},
				);
				return () => {
					if (pending) controller.abort();
				};
			});
		});
}
