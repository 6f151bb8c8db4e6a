import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/level/memory.js';
import { runKey } from '../../src/store/model/run-key.js';
import type { RunChange, RunDetail } from '../../src/store/model/types.js';
import { listen, type Listening } from '../../src/watch/listen.js';
import { createWatchMetrics } from '../../src/watch/metrics.js';
import { run, T0 } from '../outputs/history/fixtures.js';

const HOUR = 3_600_000;

/** A memory store that counts the run details read. */
class CountingStore extends MemoryStore {
	detailsRead = 0;
	override async getRunDetails(keys: readonly string[]): Promise<Array<RunDetail | undefined>> {
		this.detailsRead += keys.length;
		return super.getRunDetails(keys);
	}
}

const change = (url: string): RunChange => ({
	url,
	origin: 'https://a.test',
	reason: 'new-body',
	changed: true,
	diff: [
		[
			[0, 'price '],
			[-1, '10'],
			[1, '12'],
		],
	],
});

/** Runs of `sizes[i]` changed URLs each, an hour apart, oldest first; URL names say run and place. */
async function addRuns(store: MemoryStore, sizes: number[]): Promise<void> {
	for (const [r, size] of sizes.entries()) {
		const startedAt = T0 + r * HOUR;
		const changes = Array.from({ length: size }, (_, i) => change(`https://a.test/r${r}/p${i}`));
		await store.batch([
			{
				type: 'putRun',
				key: runKey(startedAt),
				value: run(startedAt, {
					urls: size,
					changed: size,
					hosts: { 'https://a.test': { urls: size, changed: size, conditional: 0, notModified: 0 } } as never,
				}),
			},
			{ type: 'putRunDetail', key: runKey(startedAt), value: { v: 1, startedAt, changes, errors: [], errorCounts: {}, dropped: { changes: 0, errors: 0 } } },
		]);
	}
}

/** The page's embedded data, and its link to older changes. */
function read(page: string): { urls: string[]; older?: string } {
	const json = /<script type="application\/json" id="revisit-data">(.*?)<\/script>/s.exec(page)![1]!;
	const data = JSON.parse(json) as { changes: Array<{ url: string }> };
	const older = /<a rel="next" href="([^"]+)">/.exec(page)?.[1]?.replace(/&amp;/g, '&');
	return { urls: data.changes.map((one) => one.url), older };
}

let server: Listening | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function start(store: MemoryStore, runs = 24) {
	const metrics = createWatchMetrics();
	// The clock stands still: every request falls in the first page's window, however slow the machine.
	server = await listen(
		{ host: '127.0.0.1', port: 0 },
		{ metrics, health: () => ({ ok: true }), report: { store, source: 'memory', runs, now: () => T0 + 30 * HOUR, perSecond: 1000 } },
	);
	const base = `http://127.0.0.1:${server.address.port}`;
	const builds = async () => Number(/^revisit_report_builds_total (\d+)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1]);
	return { base, builds };
}

describe('the live report page', () => {
	it('is built once however many ask within its window, together or one after another', async () => {
		const store = new CountingStore();
		await addRuns(store, [30]);
		const { base, builds } = await start(store);
		const together = await Promise.all(Array.from({ length: 20 }, () => fetch(base).then((response) => response.text())));
		for (let i = 0; i < 20; i++) expect(read(await (await fetch(base)).text()).urls).toHaveLength(30);
		expect(new Set(together).size).toBe(1);
		expect(store.detailsRead).toBe(1);
		expect(await builds()).toBe(1);
	});

	it('lists the newest 200 of 2,000 changed URLs and links to the next page, reading only the runs it shows', async () => {
		const store = new CountingStore();
		// Oldest first: 1,200, 500 and 300 changes; the newest run's come first.
		await addRuns(store, [1200, 500, 300]);
		const { base } = await start(store);
		const first = await (await fetch(base)).text();
		const page = read(first);
		expect(page.urls).toHaveLength(200);
		expect(page.urls[0]).toBe('https://a.test/r2/p0');
		expect(page.older).toBe(`./?run=${T0 + 2 * HOUR}&skip=200`);
		expect(store.detailsRead).toBe(1);
		// Its size does not grow with the store: 200 changes' worth.
		expect(Buffer.byteLength(first)).toBeLessThan(150_000);
		expect(first).toContain('200 of the 2000 changes of the last 3 run(s)');

		// Page 2 crosses into the next older run; following the links visits every change once.
		const second = read(await (await fetch(new URL(page.older!, `${base}/`))).text());
		expect(second.urls.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => `https://a.test/r2/p${200 + i}`));
		expect(second.urls.slice(100)).toEqual(Array.from({ length: 100 }, (_, i) => `https://a.test/r1/p${i}`));
		const seen = [...page.urls];
		let next = page.older;
		let pages = 1;
		while (next !== undefined) {
			const one = read(await (await fetch(new URL(next, `${base}/`))).text());
			expect(one.urls.length).toBeLessThanOrEqual(200);
			seen.push(...one.urls);
			next = one.older;
			pages++;
		}
		expect(pages).toBe(10);
		expect(seen).toHaveLength(2000);
		expect(new Set(seen).size).toBe(2000);
	});

	it('says what is wrong with a page address it cannot read', async () => {
		const { base } = await start(new MemoryStore());
		const response = await fetch(`${base}/?run=yesterday`);
		expect([response.status, await response.text()]).toEqual([400, 'a page is ?run=EPOCH_MS&skip=N, as the page links give it\n']);
	});

	it("says what is wrong with a URL page's address, and 404 for a URL with no version kept", async () => {
		const { base } = await start(new MemoryStore());
		const missing = await fetch(`${base}/url`);
		expect([missing.status, await missing.text()]).toEqual([
			400,
			"a URL's page is ?u=URL (and &a=N&b=M for two of its versions), as the report links give it\n",
		]);
		const half = await fetch(`${base}/url?u=${encodeURIComponent('https://a.test/')}&a=1`);
		expect([half.status, await half.text()]).toEqual([400, 'versions are &a=N&b=M, two numbers from the timeline\n']);
		const none = await fetch(`${base}/url?u=${encodeURIComponent('https://a.test/')}`);
		expect(none.status).toBe(404);
		const json = /<script type="application\/json" id="revisit-data">(.*?)<\/script>/s.exec(await none.text())![1]!;
		expect(JSON.parse(json)).toMatchObject({ url: 'https://a.test/', versions: [], served: true, back: './' });
	});
});
