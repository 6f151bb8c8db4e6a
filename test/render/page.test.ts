import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashBody } from '../../src/content/hash.js';
import { BROWSER_ARGS, launchBrowser, type LiveBrowser } from '../../src/render/browser.js';
import { RenderError } from '../../src/render/errors.js';
import { renderPage } from '../../src/render/page.js';
import { CHROMIUM } from '../helpers/browser.js';
import { describeNeeding } from '../helpers/debian.js';
import { startSpaSite, type SpaSite } from '../helpers/spa-site.js';

describeNeeding(CHROMIUM, 'renderPage, in Debian chromium', () => {
	let site: SpaSite;
	let live: LiveBrowser;
	beforeAll(async () => {
		site = await startSpaSite();
		live = await launchBrowser(CHROMIUM.path!, BROWSER_ARGS, () => {});
	});
	afterAll(async () => {
		await live?.close();
		await site?.close();
	});

	/** The page's body as revisit's own request would have it (one GET the site logs). */
	const fetched = async (path: string) => Buffer.from(await (await fetch(site.url(path))).arrayBuffer());

	it('serves the document from the body it is given, fetches the API, and blocks the image and the font', async () => {
		const body = await fetched('/spa-api');
		const rendered = await renderPage(live, site.url('/spa-api'), body, 'text/html; charset=utf-8', { timeoutMs: 10_000, waitFor: ['.price'] });
		console.log(`render of /spa-api: ${rendered.ms} ms`);
		expect(rendered.html).toContain('<p class="price">11.00 EUR</p>');
		expect(rendered.html).toContain('"@type":"Offer","price":"11.00"');
		expect(site.logOf('/spa-api')).toHaveLength(1);
		expect(site.logOf('/app.js')).toHaveLength(1);
		expect(site.logOf('/api/price/1')).toHaveLength(1);
		expect(site.logOf('/photo.jpg')).toEqual([]);
		expect(site.logOf('/font.woff2')).toEqual([]);
	});

	it('records the document, then each JSON answer the script fetched, with its ETag and the hash of its body', async () => {
		site.prices.set(1, 19.5);
		const body = await fetched('/spa-api');
		const rendered = await renderPage(live, site.url('/spa-api'), body, 'text/html', { timeoutMs: 10_000 });
		const api = await fetch(site.url('/api/price/1'));
		const apiBody = Buffer.from(await api.arrayBuffer());
		expect(rendered.data).toEqual([
			{ url: site.url('/spa-api'), hash: hashBody(body) },
			{ url: site.url('/api/price/1'), etag: api.headers.get('etag'), hash: hashBody(apiBody) },
		]);
		expect(rendered.html).toContain('19.50 EUR');
	});

	it('waits for a selector that appears only 1.5 s after load', async () => {
		const rendered = await renderPage(live, site.url('/spa-late'), await fetched('/spa-late'), 'text/html', { timeoutMs: 10_000, waitFor: ['.missing', '.price'] });
		console.log(`render of /spa-late: ${rendered.ms} ms`);
		expect(rendered.html).toContain('<p class="price">12.00 EUR</p>');
		expect(rendered.data.map((one) => one.url)).toEqual([site.url('/spa-late'), site.url('/api/price/2')]);
	});

	it('rejects with RENDER_TIMEOUT when no selector matches within the timeout', async () => {
		const error = await renderPage(live, site.url('/spa-api'), await fetched('/spa-api'), 'text/html', { timeoutMs: 800, waitFor: ['.never'] }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(RenderError);
		expect(error).toMatchObject({ code: 'RENDER_TIMEOUT', message: expect.stringContaining('.never') });
	});

	it('renders the static page as it is, with its offer', async () => {
		const rendered = await renderPage(live, site.url('/static'), await fetched('/static'), 'text/html', { timeoutMs: 10_000 });
		expect(rendered.html).toContain('<p class="price">10.00 EUR</p>');
		expect(rendered.data).toHaveLength(1);
		expect(site.logOf('/static')).toHaveLength(1);
	});
});
