import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { INNER_WHITESPACE, normalise, normaliseUrl } from '../../src/stages/normalise.js';

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

describe('normalise', () => {
	it('rejects a line with whitespace inside it, naming its line, instead of taking it as one URL with %20s', async () => {
		const tasks = await lastValueFrom(
			from([
				{ line: 1, text: 'http://host.test/page/1.html' },
				{ line: 2, text: 'http://host.test/page/2.html extra words' },
				{ line: 3, text: 'http://host.test/a\tb' },
				// Words that are no URL at all are named as such.
				{ line: 4, text: 'not a url' },
			]).pipe(normalise(), toArray()),
		);
		expect(tasks.map((task) => [task.line, task.url, task.skip, task.problem])).toEqual([
			[1, 'http://host.test/page/1.html', undefined, undefined],
			[2, undefined, 'rejected', INNER_WHITESPACE],
			[3, undefined, 'rejected', INNER_WHITESPACE],
			[4, undefined, 'rejected', 'not an absolute URL'],
		]);
		expect(INNER_WHITESPACE).toMatch(/^whitespace inside the line/);
	});
});
