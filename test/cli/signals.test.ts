import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const START = Date.parse('2030-01-01T00:00:00Z');

// A simulated site of 10 pages listed in a sitemap: /p0../p4 change every simulated day,
// /p5../p9 never. While `honest`, each lastmod is the page's last change; then it lies,
// always "long ago", while the pages go on changing.
describe('sitemap lastmod, trusted by measurement', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	let day = 0;
	let honest = true;
	const changing = (i: number) => i < 5;
	beforeEach(async () => {
		day = 0;
		honest = true;
		server = await startServer((req, res) => {
			if (req.url === '/sitemap.xml') {
				const entries = Array.from({ length: 10 }, (_, i) => {
					const last = honest ? (changing(i) ? START + day * DAY : START - 30 * DAY) : START - 365 * DAY;
					return `<url><loc>${server.url(`/p${i}`)}</loc><lastmod>${new Date(last).toISOString()}</lastmod></url>`;
				});
				return void res.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`);
			}
			const i = Number(req.url!.slice(2));
			res.end(`page ${i} version ${changing(i) ? day : 0}`);
		});
		dir = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await dir.cleanup();
	});

	async function runDay(d: number) {
		day = d;
		const file = path.join(dir.dir, 'pipeline.json');
		await writeFile(
			file,
			JSON.stringify({
				store: path.join(dir.dir, 'store'),
				source: { type: 'sitemap', url: server.url('/sitemap.xml') },
				stages: [
					{ use: 'due', now: START + d * DAY + 1000 },
					{ use: 'probe', audit: 0, verifyEvery: '4d', robots: 'ignore' },
					{ use: 'churn-guard', maxChurn: 0 },
				],
				sinks: [{ type: 'stdout' }],
			}),
		);
		const before = server.requests.length;
		const run = await runCli(['run', file]);
		expect(run.status).toBe(0);
		const pages = new Set(
			server.requests
				.slice(before)
				.map((request) => request.path)
				.filter((p) => p.startsWith('/p')),
		);
		return { run, pages };
	}
	const lastmodOf = async () => JSON.parse((await runCli(['stats', '--store', path.join(dir.dir, 'store'), '--json'])).stdout).lastmod;

	it('skips unchanged pages once lastmod proved right, loses the trust when it lies, and checks its skipped pages again within --verify-every', async () => {
		// Days 0..5: the five changing pages are found changed, announced, every day: trusted after the first.
		for (let d = 0; d <= 2; d++) await runDay(d);
		expect(await lastmodOf()).toMatchObject({ trusted: true, wrong: 0 });
		let skipped = 0;
		for (let d = 3; d <= 6; d++) {
			const { run, pages } = await runDay(d);
			for (let i = 0; i < 5; i++) expect(pages.has(`/p${i}`)).toBe(true);
			skipped += 5 - [...pages].filter((p) => !changing(Number(p.slice(2)))).length;
			expect(run.stderr).toMatch(/skipped on a trusted lastmod or max-age|\d+ URLs/);
		}
		// Most checks of the static pages were skipped (a sample and verification are checked anyway).
		expect(skipped).toBeGreaterThan(10);
		const stats = await runCli(['stats', '--store', path.join(dir.dir, 'store')]);
		expect(stats.stdout).toContain('sitemap lastmod trusted');

		// From day 7 lastmod says "long ago" for every page while five go on changing.
		honest = false;
		let caughtBy: number | undefined;
		for (let d = 7; d <= 7 + 4 && caughtBy === undefined; d++) {
			await runDay(d);
			if ((await lastmodOf()).trusted === false) caughtBy = d;
		}
		expect(caughtBy).toBeDefined();
		expect(await lastmodOf()).toMatchObject({ trusted: false, wrong: expect.any(Number) });
		// Trust lost: every page is checked again in the next run.
		const { pages } = await runDay(caughtBy! + 1);
		expect(pages.size).toBe(10);
	});

	it('skips pages whose answer is still fresh by a max-age proved right, and loses the trust when pages change within it', async () => {
		let lying = false;
		const site = await startServer((req, res) => {
			const i = Number(req.url!.slice(2));
			const moves = changing(i) || lying;
			res.setHeader('cache-control', changing(i) ? 'max-age=3600' : `max-age=${2 * 86_400}`);
			res.end(`page ${i} version ${moves ? day : 0}`);
		});
		const urls = Array.from({ length: 10 }, (_, i) => site.url(`/p${i}`)).join('\n');
		const store = path.join(dir.dir, 'maxage');
		const sweep = async (d: number) => {
			day = d;
			const before = site.requests.length;
			const run = await runCli(
				['sweep', '--store', store, '--audit', '0', '--verify-every', '4d', '--max-churn', '0', '--now', String(START + d * DAY + 1000)],
				urls,
			);
			expect(run.status).toBe(0);
			return {
				run,
				pages: new Set(
					site.requests
						.slice(before)
						.map((request) => request.path)
						.filter((p) => p.startsWith('/p')),
				),
			};
		};
		const maxAgeOf = async () => JSON.parse((await runCli(['stats', '--store', store, '--json'])).stdout).maxAge;
		try {
			// Day 1: the five static pages, fresh for two days, are found unchanged: trusted.
			await sweep(0);
			await sweep(1);
			expect(await maxAgeOf()).toMatchObject({ trusted: true, wrong: 0 });
			// Day 2: they were checked on day 1 and are fresh until day 3: most are skipped.
			const { run, pages } = await sweep(2);
			for (let i = 0; i < 5; i++) expect(pages.has(`/p${i}`)).toBe(true);
			expect(pages.size).toBeLessThan(10);
			expect(run.stderr).toContain('skipped on a trusted lastmod or max-age');
			// From day 3 every page changes daily, still saying fresh for two days: caught within --verify-every.
			lying = true;
			let caughtBy: number | undefined;
			for (let d = 3; d <= 3 + 4 && caughtBy === undefined; d++) {
				await sweep(d);
				if ((await maxAgeOf()).trusted === false) caughtBy = d;
			}
			expect(caughtBy).toBeDefined();
			expect((await sweep(caughtBy! + 1)).pages.size).toBe(10);
		} finally {
			await site.close();
		}
	});
});
