import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeNeeding } from '../helpers/debian.js';
import { CHROMIUM, launchChromium, openWatched, type WatchedPage } from '../helpers/browser.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const isOpen = (node: unknown): boolean => (node as { open: boolean }).open;

// A change judged by a content rule that learns noise: the report names the rule by what
// it says, and the diff shows the price alone, the learned places masked (issue 30).
describeNeeding(CHROMIUM, 'revisit report in chromium: the rule as written, and learned noise masked', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	let browser: Browser;
	let watched: WatchedPage;
	beforeAll(async () => {
		let price = '$24.50';
		let served = 0;
		server = await startServer((_req, res) => {
			served++;
			res.setHeader('content-type', 'text/html');
			res.end(
				`<html><body><main class="product"><h1>Kettle</h1><p class="price">Price: ${price} <s class="was">$30.00</s></p>` +
					`<aside class="recent"><h2>Recently viewed</h2><ul><li>${['Shoes', 'Hats', 'Coats', 'Gloves'][served % 4]}</li></ul></aside>` +
					`<p class="views">Seen ${served * 7} times</p></main></body></html>`,
			);
		});
		dir = await tempDir();
		const store = path.join(dir.dir, 'store');
		const rules = path.join(dir.dir, 'rules.json');
		await writeFile(
			rules,
			JSON.stringify([{ match: '127.0.0.1', select: ['.product'], exclude: ['.was'], text: false, ignore: ['Seen \\d+ times'], learn: true }]),
		);
		const sweep = () => runCli(['sweep', '--store', store, '--robots', 'ignore', '--rules', rules, '--audit', '0', '-q'], `${server.url('/kettle')}\n`);
		for (let run = 1; run <= 3; run++) {
			if (run === 3) price = '$21.00';
			expect((await sweep()).status).toBe(0);
		}
		const report = path.join(dir.dir, 'r.html');
		expect((await runCli(['report', '--store', store, '--html', report])).status).toBe(0);
		browser = await launchChromium();
		watched = await openWatched(browser, pathToFileURL(report).href);
	}, 120_000);
	afterAll(async () => {
		await browser?.close();
		await server?.close();
		await dir?.cleanup();
	});

	it('names the rule by its match, selectors, exclude and ignores, and says how many learned places were masked', async () => {
		const change = watched.page.locator('details.change').first();
		if (!(await change.evaluate(isOpen))) await change.locator('summary').click();
		await expect.poll(() => change.locator('table.why').count()).toBe(1);
		const why = await change.locator('table.why').innerText();
		expect(why).toMatch(
			/content rule\s+match 127\.0\.0\.1 · select \.product · exclude \.was · markup · ignore Seen \\d\+ times · learns noise \(rule [0-9a-f]{12}\)/,
		);
		expect(why).toMatch(/learned noise\s+\d+ places? removed, from the hash and the diff/);
		expect(await change.locator('.diff del').allTextContents()).toEqual(['$24.50']);
		expect(await change.locator('.diff ins').allTextContents()).toEqual(['$21.00']);
		expect(watched.errors).toEqual([]);
	});
});
