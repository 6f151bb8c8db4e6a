import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { ValidatorStore } from '../../src/store/model/types.js';
import { listen, type Listening } from '../../src/watch/listen.js';
import { createWatchMetrics } from '../../src/watch/metrics.js';
import { CHROMIUM, launchChromium, openWatched, type WatchedPage } from '../helpers/browser.js';
import { describeNeeding } from '../helpers/debian.js';
import { buildHistorySite, HUGE_WORD, type HistorySite } from '../helpers/history-site.js';

// A URL's page (its timeline and two versions compared) in Debian's chromium, from a real
// run: an origin on 127.0.0.1 whose pages change between four sweeps, then
// `revisit report --html`, whose changed-URL list links to each page.
// REVISIT_WRITE_SCREENSHOT=1 also writes docs/report-url.png.
describeNeeding(CHROMIUM, "a URL's page in chromium", () => {
	let site: HistorySite;
	let browser: Browser;
	let report: WatchedPage;
	beforeAll(async () => {
		site = await buildHistorySite();
		browser = await launchChromium();
		report = await openWatched(browser, pathToFileURL(site.report).href);
	}, 120_000);
	afterAll(async () => {
		await browser?.close();
		await site?.close();
	});

	/** The report's link to a URL's page, as an absolute address. */
	const entry = (page: Page, url: string) => page.locator('details.change', { has: page.locator('.url', { hasText: url }) });
	/** An entry of the changed-URL list, opened (the link is in its body). */
	const opened = async (page: Page, url: string) => {
		const item = entry(page, url);
		if (!(await item.evaluate((node) => (node as { open: boolean }).open))) await item.locator('summary').click();
		return item;
	};
	const linkOf = async (page: Page, url: string): Promise<string> => {
		const href = await (await opened(page, url)).locator('a.timeline').getAttribute('href');
		return new URL(href!, page.url()).href;
	};
	const words = (page: Page, tag: 'ins' | 'del'): Promise<string[]> =>
		page
			.locator(`#diff-body .diff ${tag}`)
			.allTextContents()
			.then((all) => all.map((text) => text.trim()));
	const timeline = (page: Page): Promise<string[][]> =>
		page
			.locator('#timeline tbody tr')
			.evaluateAll((rows) => rows.map((row) => [...(row as unknown as { cells: Array<{ innerText: string }> }).cells].map((cell) => cell.innerText.trim())));

	/** The report page again (the first test navigated its tab away). */
	const linkOfReport = async (): Promise<string> => {
		const fresh = await openWatched(browser, pathToFileURL(site.report).href);
		const link = await linkOf(fresh.page, site.council);
		await fresh.page.close();
		return link;
	};

	it("the changed-URL list links to a URL's page, which opens from disk with no error and no request", async () => {
		await (await opened(report.page, site.council)).locator('a.timeline').click();
		await report.page.waitForURL(/-urls\/[0-9a-f]{16}\.html$/);
		await report.page.waitForSelector('html[data-ready]');
		expect(await report.page.locator('#page-url').textContent()).toBe(site.council);
		const page = await openWatched(browser, report.page.url());
		await page.page.locator('#view-side').check();
		await page.page.locator('#step-previous').click();
		expect(page.errors).toEqual([]);
		expect(page.requests).toEqual([]);
		await page.page.locator('#back').click();
		await page.page.waitForURL(/report\.html$/);
		await page.page.close();
	});

	it('shows the timeline newest first: when, why, words added and removed', async () => {
		const { page } = await openWatched(browser, await linkOfReport());
		const rows = await timeline(page);
		expect(rows.map((row) => row[0])).toEqual(['4', '3', '2', '1']);
		expect(rows[0]![3]).toBe('new-body');
		// Version 4 added "new"; 3 swapped "agreed" for "rejected".
		expect(rows[0]![4]).toMatch(/^\+1\s+−0$/);
		expect(rows[1]![4]).toMatch(/^\+1\s+−1$/);
		for (const row of rows) expect(row[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
		await page.close();
	});

	it('compares the latest change first, and steps to the previous and next change', async () => {
		const { page } = await openWatched(browser, await linkOfReport());
		expect(await page.locator('#pair-title').textContent()).toMatch(/^Version 3 .*→ version 4/);
		expect(await words(page, 'ins')).toEqual(['new']);
		expect(await words(page, 'del')).toEqual([]);
		await page.locator('#step-previous').click();
		expect(await words(page, 'del')).toEqual(['agreed']);
		expect(await words(page, 'ins')).toEqual(['rejected']);
		expect(new URL(page.url()).hash).toBe('#a=2&b=3');
		await page.locator('#step-previous').click();
		expect(await words(page, 'del')).toEqual(['Tuesday']);
		expect(await words(page, 'ins')).toEqual(['Wednesday']);
		expect(await page.locator('#step-previous').isDisabled()).toBe(true);
		await page.locator('#step-next').click();
		expect(await words(page, 'ins')).toEqual(['rejected']);
		// The back button goes back a step.
		await page.goBack();
		expect(await words(page, 'ins')).toEqual(['Wednesday']);
		await page.close();
	});

	it('compares any two versions, side by side or inline', async () => {
		const { page } = await openWatched(browser, `${await linkOfReport()}#a=1&b=4`);
		expect(await words(page, 'del')).toEqual(['Tuesday', 'agreed']);
		expect(await words(page, 'ins')).toEqual(['Wednesday', 'rejected', 'new']);
		await page.locator('#view-side').check();
		const sides = page.locator('#diff-body table.side td');
		expect(await sides.count()).toBe(2);
		expect((await sides.nth(0).locator('del').allTextContents()).map((text) => text.trim())).toEqual(['Tuesday', 'agreed']);
		expect(await sides.nth(0).locator('ins').count()).toBe(0);
		expect((await sides.nth(1).locator('ins').allTextContents()).map((text) => text.trim())).toEqual(['Wednesday', 'rejected', 'new']);
		expect(await page.locator('#diff-body th').allTextContents()).toEqual(['version 1', 'version 4']);
		await page.locator('#view-inline').check();
		expect(await page.locator('#diff-body .inline').count()).toBe(1);
		// A pair the file does not hold names the command that shows it.
		await page.locator('#pick-b').selectOption('3');
		expect(await page.locator('#not-held').textContent()).toContain(`revisit diff ${site.council} 1 3`);
		await page.close();
	});

	it("shows a product's offer in its timeline", async () => {
		const fresh = await openWatched(browser, pathToFileURL(site.report).href);
		const { page } = await openWatched(browser, await linkOf(fresh.page, site.shoe));
		const rows = await timeline(page);
		expect(rows[0]![5]).toContain('84 EUR');
		expect(rows.at(-1)![5]).toContain('81 EUR');
		await fresh.page.close();
		await page.close();
	});

	it("escapes a hostile page's text: markup shows as text, nothing runs, a huge word wraps", async () => {
		const fresh = await openWatched(browser, pathToFileURL(site.report).href);
		const watched = await openWatched(browser, await linkOf(fresh.page, site.hostile));
		const { page } = watched;
		await page.locator('#view-side').check();
		await page.locator('#view-inline').check();
		expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
		const shown = await page.locator('#diff-body').innerText();
		expect(shown).toContain(`<script>window.pwned = `);
		expect(shown).toContain(`"quoted" 'single' </script><img src=x onerror="window.pwned=1">`);
		expect(shown.replace(/\s/g, '')).toContain(HUGE_WORD);
		expect(await page.locator('#diff-body script, #diff-body img').count()).toBe(0);
		expect(
			await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
		).toBeLessThanOrEqual(1100);
		expect(watched.errors).toEqual([]);
		await fresh.page.close();
		await page.close();
	});

	it('served by a watch: the live report links to /url?u=, and a pair the page does not hold is asked of it', async () => {
		let store: ValidatorStore | undefined;
		let server: Listening | undefined;
		try {
			store = await openStore(site.storeDir, { create: false });
			server = await listen(
				{ host: '127.0.0.1', port: 0 },
				{ metrics: createWatchMetrics(), health: () => ({ ok: true }), report: { store, source: site.storeDir, runs: 2 } },
			);
			const live = await openWatched(browser, `http://127.0.0.1:${server.address.port}/`);
			const link = await linkOf(live.page, site.council);
			expect(link).toBe(`http://127.0.0.1:${server.address.port}/url?u=${encodeURIComponent(site.council)}`);
			const { page } = await openWatched(browser, link);
			expect(await words(page, 'ins')).toEqual(['new']);
			await page.locator('#pick-b').selectOption('3');
			await page.locator('#pick-a').selectOption('1');
			await page.waitForURL(/&a=1&b=3$/);
			await page.waitForSelector('html[data-ready]');
			expect(await words(page, 'del')).toEqual(['Tuesday', 'agreed']);
			expect(await words(page, 'ins')).toEqual(['Wednesday', 'rejected']);
			await page.locator('#back').click();
			await page.waitForURL(`http://127.0.0.1:${server.address.port}/`);
			await live.page.close();
			await page.close();
		} finally {
			await server?.close();
			await store?.close();
		}
	});

	it.runIf(process.env['REVISIT_WRITE_SCREENSHOT'] === '1')('writes docs/report-url.png from the fixture run', async () => {
		const shot = await openWatched(browser, await linkOfReport(), { width: 1000, height: 560 });
		await shot.page.screenshot({ path: path.join(import.meta.dirname, '../../docs/report-url.png') });
		await shot.page.close();
	});
});
