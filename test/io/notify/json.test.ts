import { afterEach, describe, expect, it } from 'vitest';
import { notifier } from '../../../src/io/notify/index.js';
import type { TestServer } from '../../helpers/server.js';
import { MESSAGE, startReceiver } from './receiver.js';

let server: TestServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe('json', () => {
	it("json://user:pass@HOST/PATH: a POST of apprise's body plus the page, reason and offers, with +headers", async () => {
		const started = await startReceiver();
		server = started.server;
		const host = server.origin.slice('http://'.length);
		const target = notifier(`json://bob:s3cret@${host}/hooks/revisit?+X-Token=tok123`);
		await target.send(MESSAGE);
		expect(started.received).toMatchObject([
			{
				method: 'POST',
				path: '/hooks/revisit',
				headers: { 'x-token': 'tok123', authorization: `Basic ${Buffer.from('bob:s3cret').toString('base64')}`, 'content-type': 'application/json' },
				body: {
					version: '1.0',
					title: MESSAGE.title,
					message: MESSAGE.body,
					type: 'info',
					url: MESSAGE.url,
					reason: 'price',
					product: { price: 21, currency: 'EUR' },
					previous: { price: 24.5, currency: 'EUR' },
				},
			},
		]);
		expect(target.shown).toBe(`json://bob:***@${host}/hooks/revisit?+X-Token=***`);
	});

	it('a non-2xx answer rejects with its status', async () => {
		const started = await startReceiver(() => [503]);
		server = started.server;
		await expect(notifier(`json://${server.origin.slice('http://'.length)}/x`).send(MESSAGE)).rejects.toThrow('answered 503');
	});
});
