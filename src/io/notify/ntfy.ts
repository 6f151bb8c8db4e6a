import { UsageError } from '../../base/errors/index.js';
import { basicAuth, sendJson } from './post.js';
import type { Service } from './types.js';
import type { NotifyUrl } from './url.js';

const origin = (url: NotifyUrl, secure: boolean): string => `${secure ? 'https' : 'http'}://${url.host}${url.port === undefined ? '' : `:${url.port}`}`;

/**
 * `ntfy://[user:pass@]HOST[:port]/TOPIC[/TOPIC…]` (`ntfys://` for https), or
 * `ntfy://TOPIC` on ntfy.sh: one JSON publish per topic to the server's root, with the
 * title, the message and the page as its click action. `?token=` sends a bearer token,
 * `?priority=` and `?tags=` are passed on.
 *
 * @example
 * ntfy.build(splitNotifyUrl('ntfys://ntfy.example.org/prices')!, context)(message)
 */
export const ntfy: Service = {
	build(url, context) {
		if (!url.host) throw new UsageError(`notify URL ${context.shown}: write ntfy://HOST/TOPIC, ntfys://HOST/TOPIC or ntfy://TOPIC (on ntfy.sh)`);
		const hosted = url.path.length === 0;
		const target = hosted ? `${context.apiBase.ntfy}/` : `${origin(url, url.scheme === 'ntfys')}/`;
		const topics = hosted ? [url.host] : url.path;
		const headers: Record<string, string> = {};
		if (url.query['token']) headers['authorization'] = `Bearer ${url.query['token']}`;
		else if (url.user !== undefined && url.password !== undefined) headers['authorization'] = basicAuth(url.user, url.password);
		const priority = url.query['priority'] === undefined ? undefined : Number(url.query['priority']);
		if (priority !== undefined && !(Number.isInteger(priority) && priority >= 1 && priority <= 5))
			throw new UsageError(`notify URL ${context.shown}: priority must be 1 to 5`);
		const tags = (url.query['tags'] ?? '').split(',').filter(Boolean);
		return async (message, signal) => {
			for (const topic of topics) {
				const json = {
					topic,
					title: message.title,
					message: message.body,
					click: message.url,
					...(priority ? { priority } : {}),
					...(tags.length ? { tags } : {}),
				};
				await sendJson({ url: target, json, headers, timeoutMs: context.timeoutMs, signal });
			}
		};
	},
};
