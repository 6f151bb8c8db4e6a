import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UrlPageData } from '../../../src/io/report/url-data.js';
import { urlPagesDir, writeUrlPages } from '../../../src/io/report/write.js';
import { openStore } from '../../../src/store/open.js';
import { buildHistorySite, type HistorySite } from '../../helpers/history-site.js';
import { reportData } from '../../helpers/report-site.js';

const urlPageData = (html: string): UrlPageData => JSON.parse(/id="revisit-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as UrlPageData;

describe("a report file's URL pages", () => {
	let site: HistorySite;
	beforeAll(async () => {
		site = await buildHistorySite();
	}, 120_000);
	afterAll(async () => site?.close());

	it('are written beside the report, one per changed URL, and linked from it', async () => {
		const dir = urlPagesDir(site.report);
		expect(path.basename(dir)).toBe('report-urls');
		const names = (await readdir(dir)).sort();
		expect(names).toHaveLength(3);
		for (const name of names) expect(name).toMatch(/^[0-9a-f]{16}\.html$/);
		const links = reportData(await readFile(site.report, 'utf8')).urlPages as { files: Record<string, string> };
		expect(Object.keys(links.files).sort()).toEqual([site.council, site.hostile, site.shoe].sort());
		expect(
			Object.values(links.files)
				.map((href) => href.replace('report-urls/', ''))
				.sort(),
		).toEqual(names);
		const council = await readFile(path.join(dir, links.files[site.council]!.replace('report-urls/', '')), 'utf8');
		expect(council).toContain('<a id="back" href="../report.html">');
		expect(site.reportSaid).toMatch(
			/^revisit: wrote .*report\.html \([\d.]+ [KM]?i?B\) and 3 URL pages in .*report-urls\/: 2 runs, 3 URLs, 3 changed, 0 errors\n$/,
		);
	});

	it('take again the diffs a page held, only where its versions are the same ones', async () => {
		const store = await openStore(site.storeDir, { create: false });
		/** The page's embedded data changed by `edit`, as if an earlier write had made it so. */
		const rewrite = async (file: string, html: string, edit: (data: UrlPageData) => void): Promise<void> => {
			const data = urlPageData(html);
			edit(data);
			await writeFile(
				file,
				html.replace(
					/(id="revisit-data">)[\s\S]*?(<\/script>)/,
					(_, open: string, close: string) => `${open}${JSON.stringify(data).replace(/</g, '\\u003c')}${close}`,
				),
			);
		};
		const kept = (data: UrlPageData): void => void (data.diffs['3-4'] = { diff: [[[1, 'kept']]] });
		try {
			const file = path.join(
				urlPagesDir(site.report),
				(await writeUrlPages(store, site.report, [site.council], 'store'))[site.council]!.replace('report-urls/', ''),
			);
			const html = await readFile(file, 'utf8');
			expect(JSON.stringify(urlPageData(html).diffs['3-4'])).toMatch(/\[1,"new ?"\]/);
			// The page written before said something else of versions 3 and 4: it is taken as it was.
			await rewrite(file, html, kept);
			await writeUrlPages(store, site.report, [site.council], 'store');
			expect(urlPageData(await readFile(file, 'utf8')).diffs['3-4']).toEqual({ diff: [[[1, 'kept']]] });
			// Unless the versions by those numbers are others (a store made again): then the diff is made again.
			await rewrite(file, html, (data) => {
				kept(data);
				for (const version of data.versions) version.firstSeen = 1;
			});
			await writeUrlPages(store, site.report, [site.council], 'store');
			expect(urlPageData(await readFile(file, 'utf8')).diffs['3-4']).toEqual(urlPageData(html).diffs['3-4']);
		} finally {
			await store.close();
		}
	});

	it('of URLs no longer in the report are deleted, and the folder with the last of them', async () => {
		const store = await openStore(site.storeDir, { create: false });
		try {
			const kept = await writeUrlPages(store, site.report, [site.council], 'store');
			expect(Object.keys(kept)).toEqual([site.council]);
			expect(await readdir(urlPagesDir(site.report))).toEqual([kept[site.council]!.replace('report-urls/', '')]);
			expect(await writeUrlPages(store, site.report, ['https://nothing.test/'], 'store')).toEqual({});
			await expect(readdir(urlPagesDir(site.report))).rejects.toMatchObject({ code: 'ENOENT' });
		} finally {
			await store.close();
		}
	});
});
