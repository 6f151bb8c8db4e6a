import { describe, expect, it } from 'vitest';
import type { UrlPageData } from '../../../src/io/report/url-data.js';
import { renderUrlPage } from '../../../src/io/report/url-html.js';

const hostile = `https://a.test/?q="></title><script>alert(1)</script>`;

const data = (over: Partial<UrlPageData> = {}): UrlPageData => ({
	url: hostile,
	source: '.revisit',
	generatedAt: '2026-12-04T00:00:00.000Z',
	versions: [
		{ n: 2, firstSeen: 2000, lastConfirmed: 3000, reason: 'new-body', added: 1, removed: 1, bytes: 40 },
		{ n: 1, firstSeen: 1000, lastConfirmed: 1000, reason: 'new', added: 3, removed: 0, bytes: 30 },
	],
	diffs: {
		'1-2': {
			diff: [
				[
					[0, '<p>'],
					[-1, '</script><script>alert(2)</script>'],
					[1, 'fine'],
				],
			],
		},
	},
	a: 1,
	b: 2,
	back: '../report.html',
	served: false,
	...over,
});

describe("a URL's page", () => {
	it('lets no text of the page or its URL close an element or open one', () => {
		const html = renderUrlPage(data());
		expect(html).toContain('<title>revisit: https://a.test/?q=&quot;&gt;&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
		// Two scripts of its own (the data, the code): no other <script, no other </script.
		expect(html.match(/<script/g)).toHaveLength(2);
		expect(html.match(/<\/script/g)).toHaveLength(2);
		expect(html).not.toContain('alert(2)</');
	});

	it('is self-contained: a Content-Security-Policy that allows no request', () => {
		expect(renderUrlPage(data())).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"`);
	});
});
