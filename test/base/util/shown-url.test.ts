import { describe, expect, it } from 'vitest';
import { isSecretParameter, maskUrl, shownUrl } from '../../../src/base/util/shown-url.js';

describe('shownUrl', () => {
	it('masks a password where it stands, never its text elsewhere in the URL', () => {
		// The password `x` used to be replaced wherever it was written: `to=a@e***ample.org`.
		expect(shownUrl('mailto://me:x@smtp.example.org?to=a@example.org')).toBe('mailto://me:***@smtp.example.org?to=a@example.org');
		expect(shownUrl('json://bob:127.0.0.1@127.0.0.1:8080/hook')).toBe('json://bob:***@127.0.0.1:8080/hook');
		expect(shownUrl('redis://:s3cret@db:6379/2')).toBe('redis://:***@db:6379/2');
	});

	it('masks the value of each query parameter whose name says it is a secret, whole', () => {
		expect(shownUrl('json://127.0.0.1:8080/j?token=SECRET&v=2')).toBe('json://127.0.0.1:8080/j?token=***&v=2');
		expect(shownUrl('https://h/p?X-Amz-Signature=abc&X-Amz-Credential=AKIA%2F1&X-Amz-Date=20260101')).toBe(
			'https://h/p?X-Amz-Signature=***&X-Amz-Credential=***&X-Amz-Date=20260101',
		);
		expect(
			shownUrl('https://h/p?x-api-key=1&auth_token=2&apiKey=3&APIKEY=4&Client_Secret=5&refresh_token=6&session=7&sig=8&pwd=9&keyword=shoes&monkey=10'),
		).toBe(
			'https://h/p?x-api-key=***&auth_token=***&apiKey=***&APIKEY=***&Client_Secret=***&refresh_token=***&session=***&sig=***&pwd=***&keyword=shoes&monkey=10',
		);
	});

	it("masks +Header values (the notify URLs' extra headers) whatever their name", () => {
		expect(shownUrl('json://h/p?+X-Tenant=acme&+Authorization=Bearer%20abc&to=me')).toBe('json://h/p?+X-Tenant=***&+Authorization=***&to=me');
		expect(shownUrl('json://h/p?%2BX-Tenant=acme')).toBe('json://h/p?%2BX-Tenant=***');
	});

	it('reads percent-encoded names, and masks every one of a repeated parameter', () => {
		expect(shownUrl('json://h/p?%74oken=a&api%5Fkey=b&api+key=c')).toBe('json://h/p?%74oken=***&api%5Fkey=***&api+key=***');
		expect(shownUrl('json://h/p?token=a&to=x&token=b&TOKEN=c')).toBe('json://h/p?token=***&to=x&token=***&TOKEN=***');
	});

	it("masks parameters in the fragment, and a secret's value up to the next & (a # or ? written in it included)", () => {
		expect(shownUrl('https://h/cb#access_token=abc&state=xyz')).toBe('https://h/cb#access_token=***&state=xyz');
		expect(shownUrl('https://h/p?token=ab#cd&v=1')).toBe('https://h/p?token=***&v=1');
		expect(shownUrl('https://h/p?v=1#token=ab')).toBe('https://h/p?v=1#token=***');
		expect(shownUrl('json://u:p#w@h/p')).toBe('json://u:***@h/p');
	});

	it("keeps apprise's #channel path segments and everything that is not a secret as written", () => {
		expect(shownUrl('slack://T1/B2/xyz/#alerts?to=%20a')).toBe('slack://T1/B2/xyz/#alerts?to=%20a');
		expect(shownUrl('https://h/a%20b?q=%C3%A9&flag')).toBe('https://h/a%20b?q=%C3%A9&flag');
		expect(shownUrl('./.revisit')).toBe('./.revisit');
	});

	it('masks the parts a scheme makes secret: the user, the host, the first path segments', () => {
		expect(shownUrl('tgram://123456:ABC-DEF/987', { host: true })).toBe('tgram://***/987');
		expect(shownUrl('slack://bot@T1/B2/xyz/#alerts', { host: true, path: 2 })).toBe('slack://bot@***/***/***/#alerts');
		expect(shownUrl('matrix://tok@h/#room', { user: true })).toBe('matrix://***@h/#room');
	});

	it('reads text without a scheme from its authority, as a bare proxy is written', () => {
		expect(shownUrl('u:pw@proxy:3128')).toBe('u:***@proxy:3128');
	});
});

describe('maskUrl', () => {
	it('gives the values it masked, as written and decoded, for hiding them in error text', () => {
		expect(maskUrl('json://u:p%40ss@h/j?token=a+b&+X-K=c').secrets).toEqual(['p%40ss', 'p@ss', 'a+b', 'a b', 'c', 'c']);
	});
});

describe('isSecretParameter', () => {
	it.each([
		'token',
		'Token',
		'key',
		'secret',
		'password',
		'passwd',
		'pass',
		'pwd',
		'auth',
		'sig',
		'signature',
		'access_token',
		'api_key',
		'apikey',
		'client_secret',
		'refresh_token',
		'session',
		'credential',
		'credentials',
		'x-api-key',
		'auth_token',
		'X-Amz-Signature',
		'X-Amz-Security-Token',
		'accessToken',
		'token2',
	])('%s is a secret', (name) => {
		expect(isSecretParameter(name)).toBe(true);
	});

	it.each(['to', 'from', 'smtp', 'priority', 'tags', 'keyword', 'monkey', 'passenger', 'signal', 'prefix', 'user', 'mode'])('%s is not', (name) => {
		expect(isSecretParameter(name)).toBe(false);
	});
});
