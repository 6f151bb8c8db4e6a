import { afterEach, describe, expect, it } from 'vitest';
import { notifier } from '../../../src/io/notify/index.js';
import type { TestServer } from '../../helpers/server.js';
import { MESSAGE, startReceiver } from './receiver.js';

let server: TestServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe('ntfy', () => {
	it('ntfy://user:pass@HOST/TOPIC: a JSON publish to the root with topic, title, message and click, basic auth', async () => {
		const started = await startReceiver();
		server = started.server;
		const url = `ntfy://alice:pw@${server.origin.slice('http://'.length)}/prices?priority=4&tags=moneybag,shop`;
		await notifier(url).send(MESSAGE);
		expect(started.received).toMatchObject([
			{
				method: 'POST',
				path: '/',
				headers: { authorization: `Basic ${Buffer.from('alice:pw').toString('base64')}`, 'content-type': 'application/json' },
				body: { topic: 'prices', title: MESSAGE.title, message: MESSAGE.body, click: MESSAGE.url, priority: 4, tags: ['moneybag', 'shop'] },
			},
		]);
		expect(notifier(url).shown).toBe(`ntfy://alice:***@${server.origin.slice('http://'.length)}/prices?priority=4&tags=moneybag,shop`);
	});

	it('ntfy://TOPIC publishes to the hosted server (ntfy.sh, here the local one), ?token= as a bearer token', async () => {
		const started = await startReceiver();
		server = started.server;
		await notifier('ntfy://restocks?token=tk_secret', { apiBase: { ntfy: server.origin } }).send(MESSAGE);
		expect(started.received).toMatchObject([{ path: '/', headers: { authorization: 'Bearer tk_secret' }, body: { topic: 'restocks' } }]);
		expect(notifier('ntfy://restocks?token=tk_secret').shown).toBe('ntfy://restocks?token=***');
	});

	it('one publish per topic', async () => {
		const started = await startReceiver();
		server = started.server;
		await notifier(`ntfy://${server.origin.slice('http://'.length)}/a/b`).send(MESSAGE);
		expect(started.received.map((r) => (r.body as { topic: string }).topic)).toEqual(['a', 'b']);
	});

	it('refuses a priority outside 1 to 5', () => {
		expect(() => notifier('ntfy://host/topic?priority=9')).toThrow('priority must be 1 to 5');
	});
});
