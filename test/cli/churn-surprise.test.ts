import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const BASE = Date.parse('2030-01-01T00:00:00Z');

// The churn guard under the default flags, judged by surprise (src/domain/schedule/surprise.ts):
// a budget that checks the pages most likely to have changed never trips it; a host that
// starts serving one interstitial to every URL still does, on the first run.
describe("revisit sweep: the churn guard judges changes against the URLs' change rates", () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let day = 0;
	let interstitial = false;
	beforeEach(async () => {
		day = 0;
		interstitial = false;
		// /f*: a new version every simulated day; /s*: never changes. ETags, as most sites send.
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			const body = interstitial
				? '<p>Checking your browser before accessing the site.</p>'
				: `<p>${req.url} ${req.url!.startsWith('/f') ? `day ${day}` : 'always'}</p>`;
			const etag = `"${Buffer.from(body).toString('base64url').slice(-24)}${body.length}"`;
			if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
			res.writeHead(200, { etag, 'content-type': 'text/html' }).end(body);
		});
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});
	// `n` pages, fast and slow interleaved as a site lists them: one in `slowEvery` is slow (every one with 1).
	const pages = (n: number, slowEvery: number) =>
		Array.from({ length: n }, (_, i) => (i % slowEvery === slowEvery - 1 ? `/s${i}` : `/f${i}`))
			.map((path) => `${server.url(path)}\n`)
			.join('');
	const sweepOn = (at: number, input: string, args: string[] = []) =>
		runCli(['sweep', '--store', store.dir, '-q', '--now', String(BASE + at * DAY), ...args], input);

	it('a budgeted run that checks the pages most likely changed is never held back', async () => {
		const input = pages(40, 4);
		const statuses: number[] = [];
		const fastShare: number[] = [];
		let blocked = '';
		for (day = 0; day < 20; day++) {
			const from = server.requests.length;
			const run = await sweepOn(day, input, ['--budget', '25']);
			statuses.push(run.status);
			if (run.status === 3) blocked ||= run.stderr;
			const checked = new Set(
				server.requests
					.slice(from)
					.map((r) => r.path)
					.filter((path) => path !== '/robots.txt'),
			);
			fastShare.push([...checked].filter((path) => path.startsWith('/f')).length / checked.size);
		}
		expect(blocked).toBe('');
		expect(statuses).toEqual(Array(20).fill(0));
		// The budget did pick the changing pages: in some run 90% of the checks (what --max-churn counts) found a change.
		expect(Math.max(...fastShare.slice(5))).toBeGreaterThanOrEqual(0.9);
	});

	it('holds back a 200-page host that starts serving one interstitial to every URL, on the first run', async () => {
		const input = pages(200, 1);
		expect((await sweepOn(0, input)).status).toBe(0);
		expect((await sweepOn(1, input)).status).toBe(0);
		const db = await LevelStore.open(store.dir);
		const [before] = await db.getMany([server.url('/s7')]);
		await db.close();

		interstitial = true;
		const run = await sweepOn(2, input);
		expect(run.status).toBe(3);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(
			new RegExp(
				`${server.origin}: 20 of its first 20 known URLs changed, where their change rates predicted [\\d.]+ of 20: changes held back \\(churn guard\\)`,
			),
		);
		const after = await LevelStore.open(store.dir);
		const [record] = await after.getMany([server.url('/s7')]);
		await after.close();
		expect(record!.hash).toBe(before!.hash);
	});
});
