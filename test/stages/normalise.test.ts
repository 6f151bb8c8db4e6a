import { describe, expect, it } from 'vitest';
import { normaliseUrl } from '../../src/stages/normalise.js';

describe('normaliseUrl', () => {
	it.each([
		['HTTP://Example.ORG:80/a?b=1#top', 'http://example.org/a?b=1', 'http://example.org'],
		['https://example.org:443', 'https://example.org/', 'https://example.org'],
		['https://example.org:8443/x', 'https://example.org:8443/x', 'https://example.org:8443'],
		['https://user:pw@example.org/', 'https://user:pw@example.org/', 'https://example.org'],
		['https://example.org/a b', 'https://example.org/a%20b', 'https://example.org'],
	])('normalises %s to %s, origin %s', (input, url, origin) => {
		expect(normaliseUrl(input)).toEqual({ url, origin });
	});

	it.each([
		['example.org/a', 'not an absolute URL'],
		['file:///etc/passwd', 'scheme file: is not http or https'],
		['javascript:alert(1)', 'scheme javascript: is not http or https'],
		['data:text/plain,hi', 'scheme data: is not http or https'],
		['http://', 'not an absolute URL'],
	])('rejects %s', (input, problem) => {
		expect(normaliseUrl(input)).toEqual({ problem });
	});
});
