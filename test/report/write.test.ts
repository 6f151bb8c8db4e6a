import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlPagesDir, writeUrlPages } from '../../src/report/write.js';
import { openStore } from '../../src/store/open.js';
import { buildHistorySite, type HistorySite } from '../helpers/history-site.js';
import { reportData } from '../helpers/report-site.js';

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
		expect(Object.values(links.files).map((href) => href.replace('report-urls/', '')).sort()).toEqual(names);
		const council = await readFile(path.join(dir, links.files[site.council]!.replace('report-urls/', '')), 'utf8');
		expect(council).toContain('<a id="back" href="../report.html">');
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
