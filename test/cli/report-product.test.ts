import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { describeNeeding } from '../helpers/debian.js';
import { CHROMIUM, launchChromium, openWatched } from '../helpers/browser.js';
import { startOfferShop } from '../helpers/offer-shop.js';

// A product page's change in the report, in Debian's chromium: the headline and the before → after rows.
describeNeeding(CHROMIUM, 'revisit report of --product changes, in chromium', () => {
	let shop: Awaited<ReturnType<typeof startOfferShop>>;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	let browser: Browser;
	beforeAll(async () => {
		shop = await startOfferShop();
		dir = await tempDir('revisit-report-product-');
		browser = await launchChromium();
	}, 60_000);
	afterAll(async () => {
		await browser?.close();
		await shop?.close();
		await dir?.cleanup();
	});

	it('heads a price change with the prices, and shows the price and the availability before and after', async () => {
		const store = path.join(dir.dir, 'store');
		const urls = [shop.urlOf('jsonld-graph'), shop.urlOf('opengraph')];
		const sweep = async () => expect((await runCli(['sweep', '--store', store, '--product', '-q', ...urls])).status).toBe(0);
		await sweep();
		shop.offers.get('jsonld-graph')!.price = 17.99;
		shop.offers.get('opengraph')!.availability = 'OutOfStock';
		await sweep();
		const file = path.join(dir.dir, 'report.html');
		expect((await runCli(['report', '--store', store, '--html', file])).status).toBe(0);
		const watched = await openWatched(browser, pathToFileURL(file).href);
		const item = (url: string) => watched.page.locator('details.change', { has: watched.page.locator('.url', { hasText: url }) });
		expect(await item(urls[0]!).locator('summary .meta').innerText()).toContain('price 39.5 EUR → 17.99 EUR');
		expect(await item(urls[1]!).locator('summary .meta').innerText()).toContain('InStock → OutOfStock');
		await item(urls[0]!).locator('summary').click();
		// Each row's cells joined by a space (run in the page; the tests compile without the DOM's types).
		const rows = await item(urls[0]!)
			.locator('table.why tr')
			.evaluateAll((trs) =>
				trs.map((tr) =>
					Array.from((tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children, (cell) => cell.textContent ?? '').join(' '),
				),
			);
		expect(rows).toEqual(expect.arrayContaining(["reason price: the product's price moved", 'price 39.5 EUR → 17.99 EUR', 'availability InStock (same)']));
		expect(rows.join('\n')).toMatch(/content rule.*the offer \(price, availability\)/);
		expect(watched.errors).toEqual([]);
	}, 60_000);
});
