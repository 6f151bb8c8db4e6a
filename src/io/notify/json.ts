import { UsageError } from '../../base/errors/index.js';
import { basicAuth, sendJson } from './post.js';
import type { Service } from './types.js';

/**
 * `json://[user:pass@]HOST[:port]/PATH` (`jsons://` for https): a POST of apprise's JSON
 * body (`version`, `title`, `message`, `type`) plus revisit's own fields: the page's
 * `url`, the `reason`, and on product pages `product` and `previous`. `?+Name=value`
 * adds a header, as in apprise.
 *
 * @example
 * json.build(splitNotifyUrl('jsons://hooks.example.org/revisit?+X-Token=abc')!, context)(message)
 */
export const json: Service = {
	build(url, context) {
		if (!url.host) throw new UsageError(`notify URL ${context.shown}: write json://HOST[:PORT]/PATH`);
		const target =
			`${url.scheme === 'jsons' ? 'https' : 'http'}://${url.host}${url.port === undefined ? '' : `:${url.port}`}/` +
			`${url.path.map(encodeURIComponent).join('/')}`;
		const headers: Record<string, string> = {};
		for (const [key, value] of Object.entries(url.query)) if (key.startsWith('+')) headers[key.slice(1).toLowerCase()] = value;
		if (url.user !== undefined) headers['authorization'] = basicAuth(url.user, url.password ?? '');
		return async (message, signal) =>
			void (await sendJson({
				url: target,
				json: { version: '1.0', title: message.title, message: message.body, type: 'info', url: message.url, ...message.fields },
				headers,
				timeoutMs: context.timeoutMs,
				signal,
			}));
	},
};
