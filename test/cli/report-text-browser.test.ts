import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/debian.js';
import { CHROMIUM, launchChromium, openWatched, type WatchedPage } from '../helpers/browser.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { answerHtml } from '../helpers/report-site.js';
import { startServer, type TestServer } from '../helpers/server.js';

const EDITED = [7, 23, 51];
const ADDED = (n: number): string => `Late addition ${n}: the ferry now stops at pier ${n} on Sundays.`;
const paragraph = (i: number): string =>
	`<div class="para p${i}"><p id="p${i}">Paragraph ${i} of the long article reports, in plain words, what the harbour board decided about berths, ` +
	`tariffs, dredging and the ferry timetable for the coming season.</p></div>\n`;

/** One of 60 small pages, as a CMS writes them: a nav, a heading, markup around each paragraph, a script. */
function smallPage(n: number, edited: boolean): string {
	const extra = edited ? ` <span class="new">${ADDED(n)}</span>` : '';
	return `<!doctype html><html><head><title>Page ${n}</title><script>window.track = { page: ${n} };</script><style>.p{margin:0}</style></head><body>
<nav class="top"><a href="/">Home</a> <a href="/news">News</a></nav>
<h1 class="title">Notice ${n}</h1><p class="lead">The harbour office is open from nine to five.${extra}</p>
<ul class="links"><li><a href="/p/${n}/a">Timetable</a></li><li><img src="/i/${n}.png" alt="Map of pier ${n}"></li></ul></body></html>`;
}

/** A page of some 16.2 KB of HTML; each version appends a paragraph. */
function bigPage(version: number): string {
	let body = '';
	for (let i = 1; i <= 70; i++) body += paragraph(i);
	if (version >= 2) body += `<div class="para"><p>Second version: the board also approved a new fish market on the east quay.</p></div>\n`;
	if (version >= 3) body += `<div class="para"><p>Third version: tenders for the fish market open in March.</p></div>\n`;
	return `<!doctype html><html><head><title>Long article</title></head><body><article>\n${body}</article></body></html>`;
}

// The two ways a user found changes without a diff (issue 26): a store of rarely changing
// pages, whose every change is a first change; and a long page whose edits fell past the
// kept text. Both read in a real browser, as the visible text a reader sees.
describeNeeding(CHROMIUM, 'revisit report in chromium: visible-text diffs of first changes and long pages', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	let browser: Browser;
	let watched: WatchedPage;
	let report: string;
	let edited = false;
	let bigVersion = 1;
	beforeAll(async () => {
		server = await startServer((req, res) => {
			const small = /^\/page\/(\d+)$/.exec(req.url ?? '');
			const body = small ? smallPage(Number(small[1]), edited && EDITED.includes(Number(small[1]))) : req.url === '/long' ? bigPage(bigVersion) : undefined;
			if (body === undefined) {
				res.statusCode = 404;
				res.end();
				return;
			}
			answerHtml(req, res, body);
		});
		dir = await tempDir('revisit-report-text-');
		const store = path.join(dir.dir, 'store');
		const urls = [...Array.from({ length: 60 }, (_, i) => server.url(`/page/${i + 1}`)), server.url('/long')];
		const sweep = async () => {
			const run = await runCli(['sweep', '--store', store, '--robots', 'ignore', '--retries', '0', '-q'], `${urls.join('\n')}\n`);
			if (run.status !== 0 && run.status !== 1) throw new Error(`sweep failed (${run.status}): ${run.stderr}`);
		};
		await sweep();
		edited = true;
		bigVersion = 2;
		await sweep();
		bigVersion = 3;
		await sweep();
		report = path.join(dir.dir, 'report.html');
		const run = await runCli(['report', '--store', store, '--html', report, '--runs', '2']);
		if (run.status !== 0) throw new Error(`report failed (${run.status}): ${run.stderr}`);
		browser = await launchChromium();
		watched = await openWatched(browser, pathToFileURL(report).href);
	}, 120_000);
	afterAll(async () => {
		await browser?.close();
		await server?.close();
		await dir?.cleanup();
	});

	const change = (page: Page, url: string, run = 0): Locator =>
		page.locator('details.change', { has: page.locator('.url', { hasText: new RegExp(`^${url.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&')}$`) }) }).nth(run);
	const opened = async (item: Locator): Promise<Locator> => {
		if (!(await item.evaluate((node) => (node as { open: boolean }).open))) await item.locator('summary').click();
		await expect.poll(() => item.locator('.body').innerText()).not.toBe('');
		return item;
	};

	it('shows the words added at the first change of each of 3 pages out of 60, with no markup beside them', async () => {
		for (const n of EDITED) {
			const item = await opened(change(watched.page, server.url(`/page/${n}`)));
			const added = await item.locator('.diff ins').allTextContents();
			expect(added.join('')).toContain(ADDED(n));
			const diff = await item.locator('.diff').innerText();
			expect(diff).toContain('open from nine to five.');
			expect(diff).not.toMatch(/<|class=|span/);
			expect(await item.locator('.diff del').count()).toBe(0);
		}
		expect(watched.errors).toEqual([]);
	});

	it("shows a 16 KB page's second change: the paragraph appended, not 'only whitespace'", async () => {
		// Newest run first: the long page's change of run 3, then its change of run 2.
		const second = await opened(change(watched.page, server.url('/long'), 0));
		expect((await second.locator('.diff ins').allTextContents()).join('')).toContain('Third version: tenders for the fish market open in March.');
		expect(await second.locator('.diff').innerText()).not.toMatch(/Only whitespace|<p|class=/);
		const first = await opened(change(watched.page, server.url('/long'), 1));
		expect((await first.locator('.diff ins').allTextContents()).join('')).toContain(
			'Second version: the board also approved a new fish market on the east quay.',
		);
	});

	it('lists no change without a diff', async () => {
		await watched.page.locator('#nodiff-section > summary').click();
		await expect.poll(() => watched.page.locator('#nodiff-body').innerText()).toContain('Every change has a diff.');
	});
});
