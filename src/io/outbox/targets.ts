import { createHash } from 'node:crypto';
import path from 'node:path';
import { atomEntry, atomFeed, type AtomSinkOptions } from '../sinks/atom.js';
import type { NotifySinkOptions } from '../sinks/notify.js';
import { isTold } from '../sinks/sink.js';
import { webhookEntry, webhookPost, type WebhookSinkOptions } from '../sinks/webhook.js';
import { checkTemplate, messageOf, notifier, type Message } from '../notify/index.js';
import type { Task } from '../../domain/task/types.js';

/**
 * One place changes are delivered to: the Atom file, the webhook, one notify URL. What a
 * change becomes for it (`payload`) is made when the change is committed and kept in the
 * store until `send` takes it.
 */
export interface OutboxTarget {
	/** A short hash of what the target is (its kind and URL or path): the key of its deliveries. No secret can be read back from it. */
	id: string;
	/** The target as it may be shown on stderr, /healthz, /metrics and `revisit stats`: its URL with the secrets hidden. */
	shown: string;
	/** Whether the target is told of this task (a change; a first sighting only with `new`). */
	tells(task: Task): boolean;
	/** What the target is sent of the change; plain JSON, `at` being when it was committed (epoch ms). */
	payload(task: Task, at: number): unknown;
	/** Deliveries `send` takes at most at once (a webhook's `batch`; else 1). */
	batch: number;
	/** One attempt at delivering these payloads, in order, under the attempt's deadline; at once rejected when `signal` aborts. */
	send(payloads: readonly unknown[], signal: AbortSignal): Promise<void>;
}

/** The feeds a run tells changes to (`--atom`, `--webhook`, `--notify`), as the pipelines give them. */
export interface OutboxFeeds {
	atom?: (AtomSinkOptions & { max: number }) | undefined;
	webhook?: (WebhookSinkOptions & { url: string }) | undefined;
	notify?: NotifySinkOptions | undefined;
}

const idOf = (what: string): string => createHash('sha256').update(what).digest('hex').slice(0, 16);

/**
 * The targets of a run's feeds, in the order a change is told to them: the Atom file,
 * the webhook, then each notify URL. A notify URL is parsed here (a malformed one throws
 * a UsageError, as `notifySink` does).
 *
 * @example
 * outboxTargets({ notify: { urls: ['json://127.0.0.1:8080/hook'] } }) // [{ id: '…', shown: 'notify json://127.0.0.1:8080/hook', … }]
 */
export function outboxTargets(feeds: OutboxFeeds = {}): OutboxTarget[] {
	const targets: OutboxTarget[] = [];
	if (feeds.atom) {
		const atom = feeds.atom;
		const feed = atomFeed(atom);
		targets.push({
			id: idOf(`atom ${path.resolve(atom.path)}`),
			shown: `atom ${atom.path}`,
			tells: (task) => isTold(task, atom.new === true),
			payload: (task, at) => atomEntry(task, new Date(at).toISOString()),
			// The whole feed is written once for what is pending, newest first.
			batch: atom.max,
			send: async (payloads) => {
				const added = (payloads as string[]).slice().reverse();
				await feed.write(added, await feed.read(), new Date().toISOString());
			},
		});
	}
	if (feeds.webhook) {
		const webhook = feeds.webhook;
		const post = webhookPost(webhook);
		const batch = webhook.batch ?? 1;
		targets.push({
			id: idOf(`webhook ${webhook.url}`),
			shown: `webhook ${new URL(webhook.url).origin}`,
			tells: (task) => isTold(task, webhook.new === true),
			payload: (task) => webhookEntry(task),
			batch,
			send: (payloads, signal) => post(batch === 1 ? payloads[0] : { changes: payloads }, signal),
		});
	}
	const notify = feeds.notify;
	if (notify) {
		if (notify.template !== undefined) checkTemplate(notify.template);
		for (const url of notify.urls) {
			const target = notifier(url, notify);
			targets.push({
				id: idOf(`notify ${url}`),
				shown: `notify ${target.shown}`,
				tells: (task) => isTold(task, notify.new === true),
				payload: (task) => messageOf(task, notify.template),
				batch: 1,
				send: (payloads, signal) => target.send(payloads[0] as Message, signal),
			});
		}
	}
	return targets;
}
