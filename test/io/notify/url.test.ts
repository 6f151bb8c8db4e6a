import { describe, expect, it } from 'vitest';
import { hide, splitNotifyUrl } from '../../../src/io/notify/url.js';

describe('splitNotifyUrl', () => {
	it('reads user, password, host, port, path and query, decoded', () => {
		expect(splitNotifyUrl('mailtos://me%40example.org:p%40ss@smtp.example.org:2525/a@b.c?to=x@y.z&From=me+too%21')).toEqual({
			scheme: 'mailtos',
			user: 'me@example.org',
			password: 'p@ss',
			host: 'smtp.example.org',
			port: 2525,
			path: ['a@b.c'],
			query: { to: 'x@y.z', from: 'me too!' },
			raw: 'mailtos://me%40example.org:p%40ss@smtp.example.org:2525/a@b.c?to=x@y.z&From=me+too%21',
		});
	});

	it("keeps #channel in the path (not a fragment) and a bot token's colon in the host (not a port)", () => {
		expect(splitNotifyUrl('slack://T1/B2/xyz/#alerts')).toMatchObject({ host: 'T1', path: ['B2', 'xyz', '#alerts'] });
		expect(splitNotifyUrl('tgram://123456:ABC-DEF/987')).toMatchObject({ host: '123456:ABC-DEF', port: undefined, path: ['987'] });
	});

	it("keeps apprise's +Header query keys as written", () => {
		expect(splitNotifyUrl('json://h/p?+X-Token=abc')!.query).toEqual({ '+X-Token': 'abc' });
	});

	it('gives undefined for text without scheme://', () => {
		expect(splitNotifyUrl('mailto:me@example.org')).toBeUndefined();
		expect(splitNotifyUrl('ntfy.sh/topic')).toBeUndefined();
	});
});

describe('hide', () => {
	it('replaces each secret, as written and percent-encoded, longest first', () => {
		expect(hide('mailto://me:p%40ss@host and p@ss', ['p@ss'])).toBe('mailto://me:***@host and ***');
		expect(hide('tgram://123:ABC/9 bot123:ABC', ['123:ABC'])).toBe('tgram://***/9 bot***');
	});

	it('leaves text without secrets as it is', () => {
		expect(hide('ntfy://host/topic', [])).toBe('ntfy://host/topic');
	});
});
