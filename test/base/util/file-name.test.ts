import { describe, expect, it } from 'vitest';
import { bodyFileName } from '../../../src/base/util/file-name.js';

describe('bodyFileName', () => {
	it('puts the body under a host folder, keeping a readable stem and the extension', () => {
		expect(bodyFileName('https://example.org/docs/intro.html')).toMatch(/^example\.org\/docs_intro-[0-9a-f]{12}\.html$/);
		expect(bodyFileName('http://127.0.0.1:8080/')).toMatch(/^127\.0\.0\.1_8080\/index-[0-9a-f]{12}$/);
	});

	it('is stable for a URL and distinct for URLs that flatten alike', () => {
		const a = bodyFileName('https://example.org/a?b=1');
		expect(bodyFileName('https://example.org/a?b=1')).toBe(a);
		expect(bodyFileName('https://example.org/a_b=1')).not.toBe(a);
	});

	it('never escapes its folder or makes hidden files, however hostile the path', () => {
		for (const url of [
			'https://example.org/../../etc/passwd',
			'https://example.org/%2e%2e/%2e%2e/x',
			'https://example.org/.ssh/id',
			`https://example.org/${'x'.repeat(5000)}`,
		]) {
			const name = bodyFileName(url);
			expect(name.split('/')).toHaveLength(2);
			expect(name.split('/').every((part) => !part.startsWith('.') && part !== '..')).toBe(true);
			expect(name.length).toBeLessThan(160);
		}
	});
});
