import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/debian.js';
import { CHROMIUM, launchChromium, openWatched, type WatchedPage } from '../helpers/browser.js';
import { buildReportSite, type ReportSite } from '../helpers/report-site.js';

/** Whether a <details> element is open (run in the page; the tests compile without the DOM's types). */
const isOpen = (node: unknown): boolean => (node as { open: boolean }).open;

// The report page in a real browser: Debian's chromium, driven by playwright-core.
// REVISIT_WRITE_SCREENSHOT=1 also writes docs/report.png from the fixture report.
describeNeeding(CHROMIUM, 'revisit report in chromium', () => {
	let site: ReportSite;
	let browser: Browser;
	let watched: WatchedPage;
	beforeAll(async () => {
		site = await buildReportSite();
		browser = await launchChromium();
		watched = await openWatched(browser, pathToFileURL(site.lastRun).href);
	}, 120_000);
	afterAll(async () => {
		await browser?.close();
		await site?.close();
	});

	const change = (url: string): Locator =>
		watched.page.locator('details.change', { has: watched.page.locator('.url', { hasText: new RegExp(`^${url.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&')}$`) }) });

	it('loads from file:// with no console error and no network request', async () => {
		expect(watched.page.url()).toMatch(/^file:\/\//);
		// Open every section, so that everything the page builds on demand is built too.
		for (const id of ['errors-section', 'hosts-section']) await watched.page.locator(`#${id} > summary`).click();
		await watched.page.locator('#view-side').check();
		await watched.page.locator('#ignore-ws').check();
		await watched.page.locator('#ignore-ws').uncheck();
		await watched.page.locator('#view-inline').check();
		expect(watched.errors).toEqual([]);
		expect(watched.requests.filter((url) => !url.startsWith('data:'))).toEqual([]);
	});

	it("shows the fixture's changed URLs, with the summary", async () => {
		const urls = await watched.page.locator('#change-list details.change .url').allTextContents();
		expect(urls.sort()).toEqual([site.a.url('/article'), site.a.url('/spaces'), site.b.url('/price')].sort());
		const cards = await watched.page.locator('#summary .card').allInnerTexts();
		expect(cards.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(expect.arrayContaining(['6 URLS CHECKED', '3 CHANGED', '2 304S', '1 ERRORS']));
	});

	it('marks the words added and removed, with inline styles', async () => {
		const article = change(site.a.url('/article'));
		await expect.poll(() => article.evaluate(isOpen)).toBe(true);
		expect(await article.locator('.diff del').allTextContents()).toEqual(['agreed']);
		expect(await article.locator('.diff ins').allTextContents()).toEqual(['rejected']);
		expect(await article.locator('.diff ins').getAttribute('style')).toMatch(/background:#ccffd8/);
		expect(
			await article
				.locator('.diff del')
				.evaluate(
					(node) => (globalThis as unknown as { getComputedStyle(element: unknown): { textDecorationLine: string } }).getComputedStyle(node).textDecorationLine,
				),
		).toBe('line-through');
		expect(await article.locator('table.why').innerText()).toMatch(/ETag\s+"[0-9a-f]+" → "[0-9a-f]+"/);
	});

	it('switches between the inline and the side-by-side view', async () => {
		const article = change(site.a.url('/article'));
		expect(await article.locator('.diff .inline').count()).toBe(1);
		await watched.page.locator('#view-side').check();
		const sides = article.locator('.diff table.side td');
		expect(await sides.count()).toBe(2);
		expect(await sides.nth(0).locator('del').allTextContents()).toEqual(['agreed']);
		expect(await sides.nth(0).locator('ins').count()).toBe(0);
		expect(await sides.nth(1).locator('ins').allTextContents()).toEqual(['rejected']);
		expect(await sides.nth(1).locator('del').count()).toBe(0);
		expect(await article.locator('.diff .inline').count()).toBe(0);
		await watched.page.locator('#view-inline').check();
		expect(await article.locator('.diff .inline').count()).toBe(1);
		expect(await article.locator('.diff table.side').count()).toBe(0);
	});

	it('hides a whitespace-only change when whitespace is ignored', async () => {
		const spaces = change(site.a.url('/spaces'));
		// The first changes with a diff are open already; open it if not.
		if (!(await spaces.evaluate(isOpen))) await spaces.locator('summary').click();
		await expect.poll(() => spaces.locator('.diff ins, .diff del').count()).toBeGreaterThan(0);
		await watched.page.locator('#ignore-ws').check();
		expect(await spaces.locator('.diff').innerText()).toContain('Only whitespace changed');
		expect(await change(site.a.url('/article')).locator('.diff ins').allTextContents()).toEqual(['rejected']);
		await watched.page.locator('#ignore-ws').uncheck();
		expect(await spaces.locator('.diff ins, .diff del').count()).toBeGreaterThan(0);
	});

	it("lists the fixture's hosts in the host table, and the errors by code", async () => {
		const hosts = watched.page.locator('#hosts-section');
		if (!(await hosts.evaluate(isOpen))) await hosts.locator('summary').click();
		const rows = await watched.page.locator('#hosts-table tbody tr').allInnerTexts();
		expect(rows).toHaveLength(2);
		expect(rows.map((row) => row.split('\t')[0])).toEqual([site.a.origin, site.b.origin].sort());
		expect(rows.join('\n')).toMatch(/conditional/);
		const errors = watched.page.locator('#errors-section');
		if (!(await errors.evaluate(isOpen))) await errors.locator('summary').click();
		expect(await watched.page.locator('#errors-body details.error-code').getAttribute('data-code')).toBe('HTTP_500');
	});

	it('filters the changed URLs', async () => {
		await watched.page.locator('#filter').fill('/price');
		await expect.poll(() => watched.page.locator('#change-list details.change').count()).toBe(1);
		await watched.page.locator('#filter').fill('');
		await expect.poll(() => watched.page.locator('#change-list details.change').count()).toBe(3);
	});

	it.runIf(process.env['REVISIT_WRITE_SCREENSHOT'] === '1')('writes docs/report.png from the fixture report', async () => {
		const docs = path.join(import.meta.dirname, '../../docs');
		await mkdir(docs, { recursive: true });
		const shot = await openWatched(browser, pathToFileURL(site.lastRun).href, { width: 1000, height: 760 });
		await shot.page.screenshot({ path: path.join(docs, 'report.png') });
		await shot.page.locator('#view-side').check();
		await shot.page.screenshot({ path: path.join(docs, 'report-side.png') });
		await shot.page.close();
	});
});
