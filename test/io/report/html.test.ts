import { describe, expect, it } from 'vitest';
import type { ReportData } from '../../../src/io/report/data.js';
import { renderReport } from '../../../src/io/report/html.js';

const data = (over: Partial<ReportData> = {}): ReportData => ({
	generatedAt: '2026-12-04T00:00:00.000Z',
	source: '.revisit',
	runs: [],
	summary: {
		runs: 1,
		urls: 5,
		changed: 1,
		notModified: 3,
		sameHash: 0,
		sameContent: 0,
		rebaseline: 0,
		errors: 1,
		deferred: 0,
		notDue: 0,
		bytes: 2048,
		bytesSaved: 10_240,
	},
	changes: [],
	rules: {},
	errorCounts: {},
	errors: [],
	dropped: { changes: 0, errors: 0, runsWithoutDetail: 0 },
	hosts: [],
	svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
	...over,
});

describe('renderReport', () => {
	it('is one page with its style, script and chart inline, and a policy that allows no request', () => {
		const html = renderReport(data());
		expect(html).toMatch(/^<!doctype html>/);
		expect(html).toContain(`default-src 'none'; img-src data:;`);
		expect(html).toMatch(/<img alt="[^"]*" src="data:image\/svg\+xml;base64,/);
		expect(html).not.toMatch(/<(?:script|link)[^>]+(?:src|href)=/);
		expect(html).toContain('<b>2.0 KB</b><span>bytes received</span>');
	});

	it('embeds the data so that no string in it can end the script element', () => {
		const url = 'https://a/</script><script>alert(1)</script>';
		const html = renderReport(data({ changes: [{ url, reason: 'new-body', changed: true, run: '' }] }));
		expect(html.match(/<\/script>/g)).toHaveLength(2);
		const json = /<script type="application\/json" id="revisit-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
		expect(JSON.parse(json).changes[0].url).toBe(url);
	});
});
