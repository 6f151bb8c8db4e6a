import { describe, expect, it } from 'vitest';
import { useFixtures } from './fixtures.js';
import { serveSite, sorted, statsRow, sweepSites, withInm } from './trust-sites.js';

const EDITS = [
	[3, 11, 24],
	[0, 17],
	[8, 15, 29],
];
const TRUSTED = 'new host: validators trusted until measured';

describe('per-host trust: redirects, busy servers and deleted pages', () => {
	const fx = useFixtures();

	it('301 to another path: later runs go straight to the destination with its ETag, and report edits under the URL asked for', async () => {
		const site = await serveSite(fx.serve, 'moved');
		const destination = (url: string): string => url.replace('/old/', '/new/');
		const run1 = await sweepSites(fx.dir, [site]);
		expect(run1.changed).toEqual(sorted(site.urls));
		for (const url of site.urls) expect(run1.verdicts.find((verdict) => verdict.url === url)).toMatchObject({ finalUrl: destination(url) });
		expect(run1.requests(site)).toHaveLength(60);

		for (const pages of EDITS) {
			const edited = site.edit(...pages);
			const run = await sweepSites(fx.dir, [site]);
			expect(run.changed).toEqual(sorted(edited));
			for (const verdict of run.verdicts) {
				expect(verdict).toMatchObject({ reason: edited.includes(String(verdict.url)) ? 'new-body' : '304', finalUrl: destination(String(verdict.url)) });
			}
			// No more hops: one conditional request per page, to where it moved.
			const requests = run.requests(site);
			expect(requests).toHaveLength(30);
			for (const request of requests) {
				expect(request.path).toMatch(/^\/new\/\d+$/);
				expect(request.headers['if-none-match']).toMatch(/^"p\d+-v\d+"$/);
			}
		}

		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			urls: 30,
			runs: 4,
			conditional: 90,
			notModified: 82,
			mode: 'conditional',
			reason: TRUSTED,
			errors: 0,
		});
	});

	it('503 with Retry-After on every 7th request: retried with the same validators, every edit reported, no false alarm', async () => {
		const site = await serveSite(fx.serve, 'busy-503');
		const retries = ['--retries', '2'];
		const run1 = await sweepSites(fx.dir, [site], retries);
		expect(run1.changed).toEqual(sorted(site.urls));

		for (const pages of EDITS) {
			const busyBefore = site.turnedAway();
			const edited = site.edit(...pages);
			const run = await sweepSites(fx.dir, [site], retries);
			expect(run.changed).toEqual(sorted(edited));
			for (const url of site.urls) expect(run.reasonOf(url), url).toBe(edited.includes(url) ? 'new-body' : '304');
			// Some requests really were turned away, and each retry repeated its page's If-None-Match.
			const busy = site.turnedAway() - busyBefore;
			expect(busy).toBeGreaterThanOrEqual(4);
			const requests = run.requests(site);
			expect(requests).toHaveLength(30 + busy);
			for (const url of site.urls) {
				const mine = requests.filter((request) => site.server.url(request.path) === url);
				expect(mine.length).toBeLessThanOrEqual(2);
				expect(mine[0]!.headers['if-none-match']).toMatch(/^"p\d+-v\d+"$/);
				expect(new Set(mine.map((request) => request.headers['if-none-match'])).size).toBe(1);
			}
		}

		// Retried answers are answers: no errors, and the 503s leave the host's trust alone.
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ runs: 4, conditional: 90, notModified: 82, mode: 'conditional', reason: TRUSTED, errors: 0 });
	});

	it('410 for deleted pages: reported gone once, then unchanged, never sent validators; a page back again is reported', async () => {
		const site = await serveSite(fx.serve, 'gone-410');
		const run1 = await sweepSites(fx.dir, [site]);
		expect(run1.changed).toEqual(sorted(site.urls));

		const steps = [
			{ change: () => [...site.remove(5, 6), ...site.edit(12)], gone: [5, 6] },
			{ change: () => [...site.remove(20), ...site.edit(1)], gone: [5, 6, 20] },
			{ change: () => [...site.restore(5), ...site.edit(2)], gone: [6, 20] },
			{ change: () => [], gone: [6, 20] },
		];
		let goneBefore: number[] = [];
		for (const step of steps) {
			const changed = step.change();
			const run = await sweepSites(fx.dir, [site]);
			expect(run.changed).toEqual(sorted(changed));
			site.urls.forEach((url, i) => {
				const reason = step.gone.includes(i) ? 'gone' : changed.includes(url) ? 'new-body' : '304';
				expect(run.reasonOf(url), url).toBe(reason);
			});
			// A page known to be gone has no validators to send.
			const requests = run.requests(site);
			expect(requests).toHaveLength(30);
			expect(
				withInm(requests)
					.map((request) => Number(request.path.split('/')[2]))
					.sort((a, b) => a - b),
			).toEqual(site.urls.map((_, i) => i).filter((i) => !goneBefore.includes(i)));
			goneBefore = step.gone;
		}

		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ urls: 30, runs: 5, mode: 'conditional', reason: TRUSTED, errors: 0 });
	});
});
