import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore, sweep, type Verdict } from '../../src/index.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const PAGES = 100;
const FIXED_LM = new Date(Date.UTC(2024, 0, 1)).toUTCString();

/**
 * A site whose pages are redeployed with their old timestamps (rsync -t, cp -p): only a
 * Last-Modified that never moves, honoured with a 304 whatever the body now says.
 */
async function staleTimestamps(): Promise<{ server: TestServer; urls: string[]; edit(i: number): string; bodies(): number }> {
	const versions = new Array<number>(PAGES).fill(1);
	let bodies = 0;
	const server = await startServer((req, res) => {
		const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
		if (!(i in versions)) return void res.writeHead(404).end();
		if (req.headers['if-modified-since'] === FIXED_LM) return void res.writeHead(304, { 'last-modified': FIXED_LM }).end();
		bodies++;
		res.writeHead(200, { 'last-modified': FIXED_LM }).end(`page ${i} version ${versions[i]}`);
	});
	const urls = versions.map((_, i) => server.url(`/p/${i}`));
	return { server, urls, edit: (i) => (versions[i]!++, urls[i]!), bodies: () => bodies };
}

describe('--verify-every: a bound on how long a change can hide behind 304s', () => {
	let site: Awaited<ReturnType<typeof staleTimestamps>>;
	beforeEach(async () => {
		site = await staleTimestamps();
	});
	afterEach(() => site.server.close());

	/** One daily run at `day`, with a clock fixed there: no random audits, verification every `period` days. */
	const run = (store: MemoryStore, day: number, period: number): Promise<Verdict[]> =>
		lastValueFrom(sweep(site.urls, { store, clock: { now: () => day * DAY }, trust: { auditRate: 0, verifyEveryMs: period * DAY } }).pipe(toArray()));
	const confirmedOn = (verdicts: Verdict[], day: number): Verdict[] => verdicts.filter((verdict) => verdict.verifiedAt === new Date(day * DAY).toISOString());

	it('confirms every body within the period, spread over the daily runs, never all at once', async () => {
		const store = new MemoryStore();
		const last = new Map<string, number>();
		const perDay: number[] = [];
		for (let day = 1; day <= 25; day++) {
			const verdicts = await run(store, day, 10);
			expect(verdicts.filter((verdict) => verdict.changed)).toHaveLength(day === 1 ? PAGES : 0);
			const confirmed = confirmedOn(verdicts, day);
			if (day > 1) perDay.push(confirmed.length);
			for (const verdict of confirmed) {
				// No URL went longer than the period without its body confirmed.
				if (last.has(verdict.url)) expect(day - last.get(verdict.url)!, verdict.url).toBeLessThanOrEqual(10);
				last.set(verdict.url, day);
			}
			for (const url of site.urls) expect(day - (last.get(url) ?? 0), url).toBeLessThan(10);
		}
		// About a tenth of the bodies a day (each URL once per period, at its own phase), never a crowd.
		expect(Math.max(...perDay)).toBeLessThanOrEqual(PAGES / 4);
		const total = perDay.reduce((sum, n) => sum + n, 0);
		expect(total).toBeGreaterThanOrEqual(PAGES * 2);
		expect(total).toBeLessThanOrEqual(PAGES * 3);
	});

	it('reports a change hidden behind a 304 by the time its verification falls due, as an audit catch', async () => {
		const store = new MemoryStore();
		await run(store, 1, 10);
		const hidden = site.edit(37);
		const found: Array<{ day: number; verdict: Verdict }> = [];
		for (let day = 2; day <= 11; day++) {
			for (const verdict of await run(store, day, 10)) if (verdict.changed) found.push({ day, verdict });
		}
		expect(found).toHaveLength(1);
		expect(found[0]!.verdict).toMatchObject({ url: hidden, reason: 'audit' });
		expect(found[0]!.day).toBeLessThanOrEqual(11);
	});

	it('a candidates sweep passes a URL due for verification on to the fetch, unconditionally', async () => {
		const store = new MemoryStore();
		await run(store, 1, 10);
		const asked = site.server.requests.length;
		// Day 12: every URL is past its bound (its first moment fell within days 1 to 11).
		const options = { store, candidates: true, clock: { now: () => 12 * DAY }, trust: { auditRate: 0, verifyEveryMs: 10 * DAY } };
		const verdicts = await lastValueFrom(sweep(site.urls, options).pipe(toArray()));
		expect(verdicts.map((verdict) => verdict.reason)).toEqual(site.urls.map(() => 'candidate'));
		expect(site.server.requests.slice(asked).filter((request) => request.headers['if-modified-since'] !== undefined)).toEqual([]);
	});

	it('with verification off, the same change hides for as long as the 304s go on', async () => {
		const store = new MemoryStore();
		await run(store, 1, 0);
		site.edit(37);
		const bodiesBefore = site.bodies();
		for (let day = 2; day <= 31; day++) expect((await run(store, day, 0)).filter((verdict) => verdict.changed)).toEqual([]);
		expect(site.bodies()).toBe(bodiesBefore);
	});
});
