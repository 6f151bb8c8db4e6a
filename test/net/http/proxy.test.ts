import { describe, expect, it } from 'vitest';
import { checkProxyUrl, noProxyTest, proxyChooser, proxyFromEnv } from '../../../src/net/http/proxy.js';

describe('proxyFromEnv', () => {
	it('reads lower case first, then upper case, and ALL_PROXY for a scheme without its own', () => {
		expect(proxyFromEnv({ http_proxy: 'http://low:1', HTTP_PROXY: 'http://up:1' }).http).toBe('http://low:1/');
		expect(proxyFromEnv({ HTTPS_PROXY: 'proxy:3128' }).https).toBe('http://proxy:3128/');
		expect(proxyFromEnv({ ALL_PROXY: 'http://all:1', https_proxy: 'http://s:1' })).toEqual({ http: 'http://all:1/', https: 'http://s:1/' });
		expect(proxyFromEnv({ no_proxy: 'localhost' })).toEqual({ noProxy: 'localhost' });
		expect(proxyFromEnv({ HTTP_PROXY: '' })).toEqual({});
	});

	it('refuses a socks proxy, naming the variable and hiding its password', () => {
		expect(() => proxyFromEnv({ ALL_PROXY: 'socks5://u:pw@h:1' })).toThrow(/ALL_PROXY: socks5 proxies are not supported/);
		expect(() => checkProxyUrl('http://u:pw@h:1:2', '--proxy')).toThrow('--proxy: "http://u:***@h:1:2" is not a proxy URL');
		expect(() => checkProxyUrl('u:pw@h:1:2', '--proxy')).toThrow('--proxy: "u:***@h:1:2" is not a proxy URL');
	});
});

describe('NO_PROXY, as curl reads it', () => {
	const direct = noProxyTest('example.org, .internal.net,localhost:8080, 10.0.0.0/8, 192.168.1.5, [::1]');
	it.each([
		['http://example.org/', true],
		['http://www.example.org/', true],
		['http://notexample.org/', false],
		['https://a.internal.net/', true],
		['http://internal.net/', true],
		['http://localhost:8080/', true],
		['http://localhost/', false],
		['http://10.1.2.3/', true],
		['http://11.1.2.3/', false],
		['http://192.168.1.5:81/', true],
		['http://[::1]:3000/', true],
	])('%s goes direct: %s', (url, expected) => {
		expect(direct(new URL(url))).toBe(expected);
	});

	it('* covers every host; nothing covers none', () => {
		expect(noProxyTest('*')(new URL('http://any/'))).toBe(true);
		expect(noProxyTest(undefined)(new URL('http://any/'))).toBe(false);
	});
});

describe('proxyChooser', () => {
	it("takes the scheme's proxy unless NO_PROXY covers the host", () => {
		const choose = proxyChooser({ http: 'http://p:1/', noProxy: 'localhost' });
		expect(choose(new URL('http://example.org/'))?.host).toBe('p:1');
		expect(choose(new URL('https://example.org/'))).toBeUndefined();
		expect(choose(new URL('http://localhost/'))).toBeUndefined();
	});
});
