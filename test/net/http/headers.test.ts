import { describe, expect, it } from 'vitest';
import { compileHeaders, isSecretHeader, parseHeaderLine } from '../../../src/net/http/headers.js';

describe('parseHeaderLine', () => {
	it("takes curl's Name: value", () => {
		expect(parseHeaderLine('Accept-Language:  fr ')).toEqual({ name: 'Accept-Language', value: 'fr' });
		expect(parseHeaderLine('X-Empty:')).toEqual({ name: 'X-Empty', value: '' });
	});

	it.each(['Host', 'if-none-match', 'If-Modified-Since', 'Accept-Encoding', 'Range'])('refuses %s, naming it and the flag', (name) => {
		expect(() => parseHeaderLine(`${name}: x`)).toThrow(new RegExp(`--header ${name}: revisit sets ${name} itself`));
	});

	it('refuses a line without a name, a bad name, or a control character', () => {
		expect(() => parseHeaderLine('no colon')).toThrow(/'Name: value'/);
		expect(() => parseHeaderLine('Bad Name: x')).toThrow(/not a header name/);
		expect(() => parseHeaderLine('X-A: a\rb')).toThrow(/control character/);
	});
});

describe('secret headers', () => {
	it.each([
		['Authorization', true],
		['Cookie', true],
		['Proxy-Authorization', true],
		['X-Api-Key', true],
		['X-Auth-Token', true],
		['X-Client-Secret', true],
		['Accept-Language', false],
		['User-Agent', false],
	])('%s is secret: %s', (name, expected) => expect(isSecretHeader(name)).toBe(expected));

	it('a header from the environment is secret whatever its name', () => {
		expect(isSecretHeader('X-Tenant', ['x-tenant'])).toBe(true);
	});
});

describe('compileHeaders', () => {
	const headers = compileHeaders([
		{ name: 'Accept-Language', value: 'fr' },
		{ name: 'X-Tenant', value: 't1', match: 'https://api.example.org', secret: true },
		{ name: 'X-Zone', value: 'eu', match: 'example.net' },
		{ name: 'X-Path', value: 'v2', match: '/v2/' },
		{ name: 'Accept-Language', value: 'de', match: 'example.de' },
	]);

	it('gives each URL the headers whose match fits it, a later one of a name winning', () => {
		expect(headers.for(new URL('https://api.example.org/v2/x'), true)).toEqual({ 'accept-language': 'fr', 'x-tenant': 't1', 'x-path': 'v2' });
		expect(headers.for(new URL('http://example.net/'), true)).toEqual({ 'accept-language': 'fr', 'x-zone': 'eu' });
		expect(headers.for(new URL('http://example.de/'), true)).toEqual({ 'accept-language': 'de' });
	});

	it('leaves secret ones out on another origin than the one asked for', () => {
		expect(headers.for(new URL('https://api.example.org/'), false)).toEqual({ 'accept-language': 'fr' });
		expect(headers.secretNames).toEqual(['x-tenant']);
	});
});
