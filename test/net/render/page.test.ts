import { expect, it } from 'vitest';
import { hashBody } from '../../../src/domain/content/hash.js';
import { RenderError } from '../../../src/net/render/errors.js';
import { renderPage } from '../../../src/net/render/page.js';
import { CHROMIUM } from '../../helpers/browser.js';
import { describeNeeding } from '../../helpers/debian.js';
import { spaBrowser } from '../../helpers/spa-browser.js';
import { startSpaSite } from '../../helpers/spa-site.js';

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
		const rendered = await renderPage(spa.live, spa.site.url('/spa-late'), await fetched('/spa-late'), 'text/html', {
			timeoutMs: 10_000,
			waitFor: ['.missing', '.price'],
		});
		console.log(`render of /spa-late: ${rendered.ms} ms`);
		expect(rendered.html).toContain('<p class="price">12.00 EUR</p>');
		expect(rendered.data.map((one) => one.url)).toEqual([spa.site.url('/spa-late'), spa.site.url('/api/price/2')]);
	});

	it('rejects with RENDER_TIMEOUT when no selector matches within the timeout', async () => {
		const error = await renderPage(spa.live, spa.site.url('/spa-api'), await fetched('/spa-api'), 'text/html', { timeoutMs: 800, waitFor: ['.never'] }).catch(
			(caught: unknown) => caught,
		);
		expect(error).toBeInstanceOf(RenderError);
		expect(error).toMatchObject({ code: 'RENDER_TIMEOUT', message: expect.stringContaining('.never') });
	}, 60_000);

	it('renders the static page as it is, with its offer', async () => {
		const rendered = await renderPage(spa.live, spa.site.url('/static'), await fetched('/static'), 'text/html', { timeoutMs: 10_000 });
		expect(rendered.html).toContain('<p class="price">10.00 EUR</p>');
		expect(rendered.data).toHaveLength(1);
		expect(spa.site.logOf('/static')).toHaveLength(1);
	});
	it(
		'hands the page a data request got already fetched: the site sees no request for it, ' + 'and its ETag and hash are recorded from the answer handed',
		async () => {
			const api = spa.site.url('/api/price/1');
			const before = spa.site.logOf('/api/price/1').length;
			const answer = Buffer.from(JSON.stringify({ price: 42, currency: 'EUR' }));
			const handed = new Map([
				[
					api,
					{ status: 200, headers: { 'content-type': 'application/json', etag: '"handed"', 'content-encoding': 'gzip', 'content-length': '3' }, body: answer },
				],
			]);
			const rendered = await renderPage(spa.live, spa.site.url('/spa-api'), await fetched('/spa-api'), 'text/html', {
				timeoutMs: 10_000,
				waitFor: ['.price'],
				handed,
			});
			expect(rendered.html).toContain('<p class="price">42.00 EUR</p>');
			expect(spa.site.logOf('/api/price/1')).toHaveLength(before);
			expect(rendered.data[1]).toEqual({ url: api, etag: '"handed"', hash: hashBody(answer) });
		},
	);

	it("hands over another origin's answer only under CORS: with its Access-Control-Allow-Origin the page reads " +
		'it and that origin is asked nothing; without, the browser asks and CORS refuses the page the answer', async () => {
		const other = await startSpaSite();
		try {
			const api = other.url('/api/price/7');
			const page = spa.site.url('/spa-api');
			// A page that shows the price read from the other origin, or that it was refused it.
			const script =
				`fetch(${JSON.stringify(api)}).then((r) => r.json()).then((j) => j.price.toFixed(2), () => 'refused').then((text) => { ` +
				`document.querySelector('.price').textContent = text; })`;
			const body = Buffer.from(`<!doctype html><html><body><p class="price"></p><script>${script}</script></body></html>`);
			const answer = (headers: Record<string, string>) =>
				new Map([[api, { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from('{"price":7.5,"currency":"EUR"}') }]]);
			const allowed = await renderPage(spa.live, page, body, 'text/html', {
				timeoutMs: 10_000,
				waitFor: ['.price'],
				handed: answer({ 'access-control-allow-origin': new URL(page).origin }),
			});
			expect(allowed.html).toContain('<p class="price">7.50</p>');
			expect(other.logOf('/api/price/7')).toEqual([]);
			const refused = await renderPage(spa.live, page, body, 'text/html', { timeoutMs: 10_000, waitFor: ['.price'], handed: answer({}) });
			expect(refused.html).toContain('<p class="price">refused</p>');
			// The site logs a request once its answer is written, which may be just after the page saw it refused.
			await expect.poll(() => other.logOf('/api/price/7').map((entry) => entry.status), { timeout: 10_000 }).toEqual([200]);
		} finally {
			await other.close();
		}
	}, 60_000);
});
