import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSER_ARGS, launchBrowser, type LiveBrowser } from '../../../src/net/render/browser.js';
import { RenderError } from '../../../src/net/render/errors.js';
import { renderPage } from '../../../src/net/render/page.js';
import { CHROMIUM } from '../../helpers/browser.js';
import { describeNeeding } from '../../helpers/debian.js';
import { startDrawnSite, type DrawnSite } from '../../helpers/drawn-site.js';

/** The markup of an offer, which none of these pages has: a render that waited only for it would time out. */
const OFFER_MARKUP = ['script[type="application/ld+json"]', '[itemprop="price"]'];

describeNeeding(CHROMIUM, 'when a rendered page is ready, in Debian chromium', () => {
	let site: DrawnSite;
	let live: LiveBrowser;
	beforeAll(async () => {
		site = await startDrawnSite();
		live = await launchBrowser(CHROMIUM.path!, BROWSER_ARGS, () => {});
	});
	afterAll(async () => {
		await live?.close();
		await site?.close();
	});
	const body = async (path: string) => Buffer.from(await (await fetch(site.url(path))).arrayBuffer());
	const render = async (path: string, options: Parameters<typeof renderPage>[4]) =>
		renderPage(live, site.url(path), await body(path), 'text/html; charset=utf-8', options);

	it('is ready once the network is idle and what the page shows is read, with no markup to wait for', async () => {
		site.price = 24.5;
		const rendered = await render('/drawn', { timeoutMs: 10_000, waitFor: OFFER_MARKUP, reads: (html) => html.includes('€24.50') });
		expect(rendered.html).toContain('<p class="cost">€24.50</p><button type="submit">Add to cart</button>');
		expect(rendered.data.map((one) => new URL(one.url).pathname)).toEqual(['/drawn', '/api/drawn']);
	});

	it('reads the page again once it changes after a read that found nothing (a timer, no request)', async () => {
		// The product as written in the DOM (the inline script holds it JSON-escaped).
		const drawn = (html: string) => html.includes('<button type="submit">Add to cart</button>');
		const read: string[] = [];
		const rendered = await render('/loading', {
			timeoutMs: 10_000,
			waitFor: OFFER_MARKUP,
			reads: (html) => {
				read.push(drawn(html) ? 'product' : 'loading');
				return drawn(html);
			},
		});
		expect(drawn(rendered.html)).toBe(true);
		// Read (at most) once while it said "Loading…", and not again until the timer changed it.
		expect(read.at(-1)).toBe('product');
		expect(read.filter((one) => one === 'loading').length).toBeLessThanOrEqual(1);
	});

	it('without a rule, is ready at network idle only once the page shows text', async () => {
		const rendered = await render('/late-text', { timeoutMs: 10_000 });
		// After the script, which holds the words too.
		expect(rendered.html).toContain('</script>Written by a timer</body>');
	});

	it('times out, saying why, when what the page shows never holds what is read', async () => {
		const error = await render('/story', { timeoutMs: 5_000, waitFor: OFFER_MARKUP, reads: () => false }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(RenderError);
		expect(error).toMatchObject({ code: 'RENDER_TIMEOUT', message: expect.stringContaining('held nothing the rule reads') });
	}, 30_000);
});
