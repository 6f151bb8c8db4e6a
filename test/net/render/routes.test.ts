import { expect, it } from 'vitest';
import { renderPage } from '../../../src/net/render/page.js';
import { CHROMIUM } from '../../helpers/browser.js';
import { describeNeeding } from '../../helpers/debian.js';
import { spaBrowser } from '../../helpers/spa-browser.js';

describeNeeding(CHROMIUM, 'sendOn: what a render lets out, in Debian chromium', () => {
	const spa = spaBrowser();
	const fetched = (path: string) => spa.fetched(path);

	it('aborts the requests allow() refuses, and sends the headers given for the others', async () => {
		const before = spa.site.logOf('/api/price/3').length;
		const allowed: string[] = [];
		const rendered = await renderPage(spa.live, spa.site.url('/spa/3'), await fetched('/spa/3'), 'text/html', {
			timeoutMs: 10_000,
			allow: async (url) => (allowed.push(url), !url.includes('/api/')),
			headers: () => ({ 'x-revisit': 'render', cookie: 'session=1' }),
		});
		expect(spa.site.logOf('/api/price/3')).toHaveLength(before);
		// Asked by the page's routes, and again by the guard proxy the browser sends through (Chromium's own requests too: refused).
		expect([...new Set(allowed.filter((url) => url.startsWith(spa.site.url('/'))))]).toEqual([spa.site.url('/app.js'), spa.site.url('/api/price/3')]);
		expect(rendered.html).toContain('<p class="price"></p>');
		expect(rendered.data).toHaveLength(1);
		const script = spa.site.requests.filter((request) => request.path === '/app.js').at(-1)!;
		expect(script.headers).toMatchObject({ 'x-revisit': 'render', cookie: 'session=1' });
	});

	it('sends the headers given when nothing is to be checked (the browser sends the request itself)', async () => {
		const rendered = await renderPage(spa.live, spa.site.url('/spa/6'), await fetched('/spa/6'), 'text/html', {
			timeoutMs: 10_000,
			waitFor: ['.price'],
			headers: () => ({ 'X-Revisit': 'plain' }),
		});
		expect(rendered.html).toContain('16.00 EUR');
		expect(spa.site.requests.filter((request) => request.path === '/api/price/6').at(-1)!.headers['x-revisit']).toBe('plain');
	});

	it('asks allow() about each redirect of a data request: a refused target is never requested', async () => {
		const asked: string[] = [];
		const refused = await renderPage(spa.live, spa.site.url('/spa-moved'), await fetched('/spa-moved'), 'text/html', {
			timeoutMs: 10_000,
			allow: (url) => (asked.push(url), !url.endsWith('/api/price/5')),
		});
		expect([...new Set(asked.filter((url) => url.startsWith(spa.site.url('/'))))]).toEqual([
			spa.site.url('/app.js'),
			spa.site.url('/api/moved/5'),
			spa.site.url('/api/price/5'),
		]);
		expect(spa.site.logOf('/api/moved/5')).toHaveLength(1);
		expect(spa.site.logOf('/api/price/5')).toEqual([]);
		expect(refused.html).toContain('<p class="price"></p>');
		const followed = await renderPage(spa.live, spa.site.url('/spa-moved'), await fetched('/spa-moved'), 'text/html', {
			timeoutMs: 10_000,
			waitFor: ['.price'],
			allow: () => true,
		});
		expect(followed.html).toContain('15.00 EUR');
		expect(spa.site.logOf('/api/price/5')).toHaveLength(1);
		// Recorded under the URL the page asked for, with the validators of the answer it got: got follows the same redirect.
		expect(followed.data[1]).toMatchObject({ url: spa.site.url('/api/moved/5'), etag: expect.stringMatching(/^"/) });
	});

	it('sends a cookie given for a data request, and still records the answer with its ETag', async () => {
		const rendered = await renderPage(spa.live, spa.site.url('/spa/4'), await fetched('/spa/4'), 'text/html', {
			timeoutMs: 10_000,
			waitFor: ['.price'],
			headers: () => ({ Cookie: 'session=4' }),
		});
		expect(rendered.html).toContain('14.00 EUR');
		expect(spa.site.requests.filter((request) => request.path === '/api/price/4').at(-1)!.headers.cookie).toBe('session=4');
		expect(rendered.data[1]).toMatchObject({ url: spa.site.url('/api/price/4'), etag: expect.stringMatching(/^"[0-9a-f]+"$/) });
	});
});
