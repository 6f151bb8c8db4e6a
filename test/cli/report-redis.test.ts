import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { buildReportSite, reportData, type ReportSite } from '../helpers/report-site.js';

// The report's fixture run on a Redis store: the kept text (in URL records) and the run
// details ({detail.NN} buckets) give the same page as on LevelDB.
describeRedis('revisit report on a Redis store', () => {
	let redis: TestRedis;
	let site: ReportSite;
	beforeAll(async () => {
		redis = await startRedis();
		site = await buildReportSite({ store: redis.url('report:') });
	}, 60_000);
	afterAll(async () => {
		await site?.close();
		await redis?.stop();
	});

	it('reports the changes with their word diffs, the errors and the hosts', async () => {
		const data = reportData(await readFile(site.lastRun, 'utf8'));
		expect(data.summary).toMatchObject({ runs: 1, urls: 6, changed: 3, notModified: 2, errors: 1 });
		const article = data.changes.find((change) => change.url === site.a.url('/article'))!;
		expect(article.diff!.flat().filter(([op]) => op !== 0)).toEqual([
			[-1, 'agreed'],
			[1, 'rejected'],
		]);
		expect(data.errorCounts).toEqual({ HTTP_500: 1 });
		expect(data.hosts).toHaveLength(2);
		const all = reportData(await readFile(site.allRuns, 'utf8'));
		expect(all.changes.filter((change) => change.url === site.a.url('/article')).map((change) => change.text)).toEqual(['diff', 'diff', 'first-sight']);
	});
});
