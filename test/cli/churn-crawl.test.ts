import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { FEW, LIMITS, lines, MOST, startChurnSite, written, type ChurnSite } from './churn-site.js';

describe('churn guard: crawl judges churn over the URLs its sweep phase probed', () => {
	let site: ChurnSite;
	let work: { dir: string; cleanup(): Promise<void> };
	beforeAll(async () => {
		site = await startChurnSite();
		work = await tempDir();
	});
	afterAll(async () => {
		await site.close();
		await work.cleanup();
	});
	const crawl = (out: string, args: string[] = []) =>
		runCli(['crawl', '--store', site.store, '--out', path.join(work.dir, out), ...LIMITS, '--fetch-concurrency', '6', '--fetch-per-host', '6', ...args], site.input());

	it('lets 200 edits of 3,000 through, holds 2,900 back (nothing committed or written) until --accept-churn', async () => {
		const few = site.edit(FEW);
		const passed = await crawl('few', ['-q']);
		expect(passed).toMatchObject({ status: 0, stderr: '' });
		expect(lines(passed.stdout)).toEqual(few);
		expect(await written(path.join(work.dir, 'few'))).toEqual({ files: 200, urls: few });

		// Judged on the sweep phase's counts: 304s need no fetch, so they reach the guard first and, counted there, would understate churn.
		const most = site.edit(MOST);
		const churn = await crawl('most');
		expect(churn).toMatchObject({ status: 3, stdout: '' });
		expect(churn.stderr).toMatch(new RegExp(`${site.server.origin}: about \\d+ of its first \\d+ known URLs changed \\(20 of 20 fetched\\): changes held back \\(churn guard\\)`));
		expect(await written(path.join(work.dir, 'most'))).toEqual({ files: 0, urls: [] });
		await site.uncommitted(most);
		expect(await site.blocked()).toBe(true);

		// Every edit is reported again, and let through.
		const accepted = await crawl('most', ['-q', '--accept-churn', site.server.origin]);
		expect(accepted.status).toBe(0);
		expect(lines(accepted.stdout)).toEqual(most);
		expect(await written(path.join(work.dir, 'most'))).toEqual({ files: 2900, urls: most });
		expect(await site.blocked()).toBe(false);
	}, 120_000);
});
