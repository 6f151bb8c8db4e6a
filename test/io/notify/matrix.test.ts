import { afterEach, describe, expect, it } from 'vitest';
import { notifier } from '../../../src/io/notify/index.js';
import type { TestServer } from '../../helpers/server.js';
import { MESSAGE, startReceiver, type Received } from './receiver.js';

let server: TestServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** A homeserver's three answers: login, join (the alias's room id), send. */
const homeserver = (request: Received): [number, unknown] => {
	if (request.path === '/_matrix/client/v3/login')
		return (request.body as { password?: string }).password === 'pw' ? [200, { access_token: 'syt_tok' }] : [403, { errcode: 'M_FORBIDDEN' }];
	if (request.headers.authorization !== 'Bearer syt_tok') return [401, { errcode: 'M_UNKNOWN_TOKEN' }];
	if (request.path.startsWith('/_matrix/client/v3/join/')) return [200, { room_id: '!abc:example.org' }];
	return [200, { event_id: '$1' }];
};

describe('matrix', () => {
	it(
		'matrix://user:pass@HOST/#room: logs in, joins the alias on the same server (its name, ' + 'without the port), sends an m.text event to its room id',
		async () => {
			const started = await startReceiver(homeserver);
			server = started.server;
			const host = server.origin.slice('http://'.length);
			await notifier(`matrix://revisit:pw@${host}/#prices`).send(MESSAGE);
			expect(started.received.map((r) => [r.method, r.path.replace(/[^/]+$/, (last) => (last.length === 36 ? 'TXN' : last))])).toEqual([
				['POST', '/_matrix/client/v3/login'],
				['POST', `/_matrix/client/v3/join/${encodeURIComponent('#prices:127.0.0.1')}`],
				['PUT', `/_matrix/client/v3/rooms/${encodeURIComponent('!abc:example.org')}/send/m.room.message/TXN`],
			]);
			expect(started.received[0]!.body).toEqual({ type: 'm.login.password', identifier: { type: 'm.id.user', user: 'revisit' }, password: 'pw' });
			expect(started.received[2]!.body).toEqual({ msgtype: 'm.text', body: `${MESSAGE.title}\n${MESSAGE.body}` });
		},
	);

	it('matrix://TOKEN@HOST/!room:server: no login, the token as bearer', async () => {
		const started = await startReceiver(homeserver);
		server = started.server;
		const target = notifier(`matrix://syt_tok@${server.origin.slice('http://'.length)}/!abc:example.org`);
		await target.send(MESSAGE);
		expect(started.received.map((r) => r.method)).toEqual(['POST', 'PUT']);
		expect(target.shown).not.toContain('syt_tok');
	});

	it("a wrong password rejects with the server's answer, the password hidden", async () => {
		const started = await startReceiver(homeserver);
		server = started.server;
		const target = notifier(`matrix://revisit:wrong-pw@${server.origin.slice('http://'.length)}/#prices`);
		expect(target.shown).toContain('revisit:***@');
		await expect(target.send(MESSAGE)).rejects.toThrow('answered 403: {"errcode":"M_FORBIDDEN"}');
	});

	it('refuses a URL without a room or credentials', () => {
		expect(() => notifier('matrix://host/#room')).toThrow('matrix://USER:PASSWORD@HOST/#room');
		expect(() => notifier('matrix://u:p@host')).toThrow('matrix://USER:PASSWORD@HOST/#room');
	});
});
