import { randomUUID } from 'node:crypto';
import { UsageError } from '../../base/errors/index.js';
import { sendJson } from './post.js';
import type { Service } from './types.js';
import type { NotifyUrl } from './url.js';

const CLIENT = '/_matrix/client/v3';

/** `#room` on the URL's own server unless the alias names one; `!id:server` as is. */
const roomOf = (segment: string, url: NotifyUrl): string => {
	if (segment.startsWith('!')) return segment;
	const alias = segment.startsWith('#') ? segment : `#${segment}`;
	return alias.includes(':') ? alias : `${alias}:${url.host}`;
};

/**
 * `matrix://user:pass@HOST[:port]/#room` or `matrix://TOKEN@HOST/#room` (`matrixs://` for
 * https; `!roomid:server` also names a room): logs in when given a password, joins each
 * room (a no-op once joined; it also turns an alias into the room's id), and sends the
 * message as an `m.text` event.
 *
 * @example
 * matrix.build(splitNotifyUrl('matrixs://revisit:pw@matrix.example.org/#prices')!, context)(message)
 */
export const matrix: Service = {
	// Without a password, the user is the access token.
	hidden: (url) => ({ user: url.password === undefined }),
	build(url, context) {
		if (!url.host || url.path.length === 0 || (url.user === undefined && url.query['token'] === undefined)) {
			throw new UsageError(`notify URL ${context.shown}: write matrix://USER:PASSWORD@HOST/#room or matrix://TOKEN@HOST/#room (matrixs:// for https)`);
		}
		const base = `${url.scheme === 'matrixs' ? 'https' : 'http'}://${url.host}${url.port === undefined ? '' : `:${url.port}`}${CLIENT}`;
		const rooms = url.path.map((segment) => roomOf(segment, url));
		const timeoutMs = context.timeoutMs;
		let token = url.query['token'] ?? (url.password === undefined ? url.user : undefined);
		return async (message, signal) => {
			if (token === undefined) {
				const login = (await sendJson({
					url: `${base}/login`,
					json: { type: 'm.login.password', identifier: { type: 'm.id.user', user: url.user }, password: url.password },
					timeoutMs,
					signal,
				})) as { access_token?: string } | undefined;
				if (!login?.access_token) throw new Error('login gave no access token');
				token = login.access_token;
			}
			const headers = { authorization: `Bearer ${token}` };
			for (const room of rooms) {
				const joined = (await sendJson({ url: `${base}/join/${encodeURIComponent(room)}`, json: {}, headers, timeoutMs, signal })) as
					| { room_id?: string }
					| undefined;
				const id = joined?.room_id ?? room;
				const body = { msgtype: 'm.text', body: `${message.title}\n${message.body}` };
				await sendJson({
					method: 'PUT',
					url: `${base}/rooms/${encodeURIComponent(id)}/send/m.room.message/${randomUUID()}`,
					json: body,
					headers,
					timeoutMs,
					signal,
				});
			}
		};
	},
};
