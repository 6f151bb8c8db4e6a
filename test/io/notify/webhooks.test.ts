import { afterEach, describe, expect, it } from 'vitest';
import { notifier } from '../../../src/io/notify/index.js';
import { RevisitError } from '../../../src/base/errors/index.js';
import type { TestServer } from '../../helpers/server.js';
import { MESSAGE, startReceiver } from './receiver.js';

let server: TestServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const text = `${MESSAGE.title}\n${MESSAGE.body}`;

describe('discord, slack and tgram (their API hosts pointed at a local receiver)', () => {
	it('discord://ID/TOKEN: one POST to /api/webhooks/ID/TOKEN with the message as content', async () => {
		const started = await startReceiver(() => [204]);
		server = started.server;
		await notifier('discord://revisit-bot@1234/tok-EN', { apiBase: { discord: server.origin } }).send(MESSAGE);
		expect(started.received).toMatchObject([
			{ method: 'POST', path: '/api/webhooks/1234/tok-EN', headers: { 'content-type': 'application/json' }, body: { content: text, username: 'revisit-bot' } },
		]);
	});

	it('slack://A/B/C/#ch1/#ch2: a POST to /services/A/B/C per channel', async () => {
		const started = await startReceiver(() => [200, 'ok']);
		server = started.server;
		await notifier('slack://T01/B02/xyz/#alerts/#prices', { apiBase: { slack: server.origin } }).send(MESSAGE);
		expect(started.received.map((r) => [r.method, r.path, r.body])).toEqual([
			['POST', '/services/T01/B02/xyz', { text, channel: '#alerts' }],
			['POST', '/services/T01/B02/xyz', { text, channel: '#prices' }],
		]);
	});

	it('tgram://BOT_TOKEN/CHAT: a POST to /botTOKEN/sendMessage with the chat id and the text', async () => {
		const started = await startReceiver(() => [200, { ok: true }]);
		server = started.server;
		await notifier('tgram://123456:ABC-DEF/-100987', { apiBase: { telegram: server.origin } }).send(MESSAGE);
		expect(started.received).toMatchObject([{ method: 'POST', path: '/bot123456:ABC-DEF/sendMessage', body: { chat_id: '-100987', text } }]);
	});

	it('a refusal rejects with the status and what the service said, its tokens hidden', async () => {
		const started = await startReceiver((request) => [401, { description: `bad token at ${request.path}` }]);
		server = started.server;
		const target = notifier('tgram://123456:SECRET-TOKEN/42', { apiBase: { telegram: server.origin } });
		expect(target.shown).toBe('tgram://***/42');
		const error = await target.send(MESSAGE).catch((e: Error) => e);
		expect((error as Error).message).toBe('answered 401: {"description":"bad token at /bot***/sendMessage"}');
	});

	it.each([
		['discord://1234', 'discord://WEBHOOK_ID/WEBHOOK_TOKEN'],
		['slack://T01/B02', 'slack://TOKEN_A/TOKEN_B/TOKEN_C'],
		['tgram://nocolon/42', 'tgram://BOT_TOKEN/CHAT_ID'],
	])('%s is refused with the form to write', (url, form) => {
		expect(() => notifier(url)).toThrow(RevisitError);
		expect(() => notifier(url)).toThrow(form);
	});

	it('shows discord and slack URLs with their tokens hidden', () => {
		expect(notifier('discord://1234/tok-EN').shown).toBe('discord://1234/***');
		expect(notifier('slack://T01/B02/xyz/#alerts').shown).toBe('slack://***/***/***/#alerts');
	});
});
