import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FEW, LIMITS, lines, MOST, useChurnSite, written } from './churn-site.js';

describe('churn guard: crawl judges churn over the URLs its sweep phase probed', () => {
	const fx = useChurnSite();
	const crawl = (out: string, args: string[] = []) =>
		runCli(
			['crawl', '--store', fx.site.store, '--out', path.join(fx.dir, out), ...LIMITS, '--fetch-concurrency', '6', '--fetch-per-host', '6', ...args],
			fx.site.input(),
		);

	it('lets 200 edits of 3,000 through, holds 2,900 back (nothing committed or written) until --accept-churn', async () => {
		const few = fx.site.edit(FEW);
		const passed = await crawl('few', ['-q']);
		expect(passed).toMatchObject({ status: 0, stderr: '' });
		expect(lines(passed.stdout)).toEqual(few);
		expect(await written(path.join(fx.dir, 'few'))).toEqual({ files: 200, urls: few });

		// Judged on the sweep phase's counts: 304s need no fetch, so they reach the guard first and, counted there, would understate churn.
		const most = fx.site.edit(MOST);
		const before = fx.site.fetches();
		const churn = await crawl('most');
		// Once blocked, the host's remaining candidates are held without being downloaded: the guard's
		// sample and what the fetch phase had in hand (its window, 256 lines) at most.
		expect(fx.site.fetches() - before).toBeLessThanOrEqual(20 + 256);
		expect(churn).toMatchObject({ status: 3, stdout: '' });
		expect(churn.stderr).toMatch(
			new RegExp(
				`${fx.site.server.origin}: about \\d+ of its first \\d+ known URLs changed \\(20 of 20 fetched\\), where their change rates predicted [\\d.]+ ` +
					`of \\d+: changes held back \\(churn guard\\)`,
			),
		);
		expect(await written(path.join(fx.dir, 'most'))).toEqual({ files: 0, urls: [] });
		await fx.site.uncommitted(most);
		expect(await fx.site.blocked()).toBe(true);

		// Every edit is reported again, and let through.
		const accepted = await crawl('most', ['-q', '--accept-churn', fx.site.server.origin]);
		expect(accepted.status).toBe(0);
		expect(lines(accepted.stdout)).toEqual(most);
		expect(await written(path.join(fx.dir, 'most'))).toEqual({ files: 2900, urls: most });
		expect(await fx.site.blocked()).toBe(false);
	}, 120_000);
});
