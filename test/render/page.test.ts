import { expect, it } from 'vitest';
import { hashBody } from '../../src/content/hash.js';
import { RenderError } from '../../src/render/errors.js';
import { renderPage } from '../../src/render/page.js';
import { CHROMIUM } from '../helpers/browser.js';
import { describeNeeding } from '../helpers/debian.js';
import { spaBrowser } from '../helpers/spa-browser.js';

describeNeeding(CHROMIUM, 'renderPage, in Debian chromium', () => {
	const spa = spaBrowser();
	const fetched = (path: string) => spa.fetched(path);

	it('serves the document from the body it is given, fetches the API, and blocks the image and the font', async () => {
		const body = await fetched('/spa-api');
		const rendered = await renderPage(spa.live, spa.site.url('/spa-api'), body, 'text/html; charset=utf-8', { timeoutMs: 10_000, waitFor: ['.price'] });
		console.log(`render of /spa-api: ${rendered.ms} ms`);
		expect(rendered.html).toContain('<p class="price">11.00 EUR</p>');
		expect(rendered.html).toContain('"@type":"Offer","price":"11.00"');
		expect(spa.site.logOf('/spa-api')).toHaveLength(1);
		expect(spa.site.logOf('/app.js')).toHaveLength(1);
		expect(spa.site.logOf('/api/price/1')).toHaveLength(1);
		expect(spa.site.logOf('/photo.jpg')).toEqual([]);
		expect(spa.site.logOf('/font.woff2')).toEqual([]);
	});

	it('records the document, then each JSON answer the script fetched, with its ETag and the hash of its body', async () => {
		spa.site.prices.set(1, 19.5);
		const body = await fetched('/spa-api');
		const rendered = await renderPage(spa.live, spa.site.url('/spa-api'), body, 'text/html', { timeoutMs: 10_000 });
		const api = await fetch(spa.site.url('/api/price/1'));
		const apiBody = Buffer.from(await api.arrayBuffer());
		expect(rendered.data).toEqual([
			{ url: spa.site.url('/spa-api'), hash: hashBody(body) },
			{ url: spa.site.url('/api/price/1'), etag: api.headers.get('etag'), hash: hashBody(apiBody) },
		]);
		expect(rendered.html).toContain('19.50 EUR');
	});

	it('waits for a selector that appears only 1.5 s after load', async () => {
		const rendered = await renderPage(spa.live, spa.site.url('/spa-late'), await fetched('/spa-late'), 'text/html', { timeoutMs: 10_000, waitFor: ['.missing', '.price'] });
		console.log(`render of /spa-late: ${rendered.ms} ms`);
		expect(rendered.html).toContain('<p class="price">12.00 EUR</p>');
		expect(rendered.data.map((one) => one.url)).toEqual([spa.site.url('/spa-late'), spa.site.url('/api/price/2')]);
	});

	it('rejects with RENDER_TIMEOUT when no selector matches within the timeout', async () => {
		const error = await renderPage(spa.live, spa.site.url('/spa-api'), await fetched('/spa-api'), 'text/html', { timeoutMs: 800, waitFor: ['.never'] }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(RenderError);
		expect(error).toMatchObject({ code: 'RENDER_TIMEOUT', message: expect.stringContaining('.never') });
	}, 60_000);

	it('renders the static page as it is, with its offer', async () => {
		const rendered = await renderPage(spa.live, spa.site.url('/static'), await fetched('/static'), 'text/html', { timeoutMs: 10_000 });
		expect(rendered.html).toContain('<p class="price">10.00 EUR</p>');
		expect(rendered.data).toHaveLength(1);
		expect(spa.site.logOf('/static')).toHaveLength(1);
	});
});
