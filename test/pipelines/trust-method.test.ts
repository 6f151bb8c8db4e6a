import { describe, expect, it } from 'vitest';
import { trustDefaults } from '../../src/net/hosts/trust-options.js';
import { useFixtures } from './fixtures.js';
import { expectEchoed, serveSite, sorted, statsRow, sweepSites, type Site } from './trust-sites.js';

const AUTO = ['--method', 'auto'];
const EDITS = [
	[3, 11, 24],
	[0, 17],
	[8, 15, 29],
];

const heads = (site: Site, requests = site.server.requests) => requests.filter((request) => request.method === 'HEAD');

/**
 * Sweeps a site whose HEAD can't stand in for GET with --method auto, four runs: HEAD is
 * sampled on the first run only, GET is chosen, and every later run is one conditional
 * GET per page that finds exactly the edits.
 */
async function autoPicksGet(dir: string, site: Site): Promise<void> {
	let previous = await sweepSites(dir, [site], AUTO);
	expect(previous.changed).toEqual(sorted(site.urls));
	// The host's first URLs are sampled (HEAD and GET side by side); the verdicts come from the GETs.
	expect(heads(site).length).toBeGreaterThanOrEqual(1);
	expect(heads(site).length).toBeLessThanOrEqual(trustDefaults.headSample);
	expect(previous.requests(site).filter((request) => request.method === 'GET')).toHaveLength(30);
	expect((await statsRow(dir, site.origin)).method).toBe('get');

	for (const pages of EDITS) {
		const edited = site.edit(...pages);
		const run = await sweepSites(dir, [site], AUTO);
		expect(run.changed).toEqual(sorted(edited));
		for (const url of site.urls) expect(run.reasonOf(url), url).toBe(edited.includes(url) ? 'new-body' : '304');
		expect(heads(site, run.requests(site))).toEqual([]);
		expectEchoed(site, previous, run, 'etag');
		previous = run;
	}
}

describe('per-host trust: --method auto', () => {
	const fx = useFixtures();

	it('HEAD answers 405: GET is chosen on the first run and HEAD is never sent again', async () => {
		const site = await serveSite(fx.serve, 'head-405');
		await autoPicksGet(fx.dir, site);
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			runs: 4,
			method: 'get',
			methodReason: 'HEAD answered 405',
			mode: 'conditional',
			conditional: 90,
			notModified: 82,
			errors: 0,
		});
	});

	it('HEAD gives a stale ETag: GET is chosen, so no edit is missed', async () => {
		const site = await serveSite(fx.serve, 'head-stale');
		await autoPicksGet(fx.dir, site);
		const row = await statsRow(fx.dir, site.origin);
		expect(row).toMatchObject({ runs: 4, method: 'get', mode: 'conditional', notModified: 82, errors: 0 });
		expect(row.methodReason).toMatch(/^HEAD gave ETag "p\d+-v0", GET "p\d+-v1"$/);
	});

	it('HEAD gives a stale ETag: forced --method head would hide the edits, which is what auto avoids', async () => {
		const site = await serveSite(fx.serve, 'head-stale');
		const head = ['--method', 'head'];
		await sweepSites(fx.dir, [site], head);
		site.edit(3, 11);
		const run2 = await sweepSites(fx.dir, [site], head);
		// The stale HEAD cache answers 304: without an audit nothing shows.
		expect(run2.changed).toEqual([]);
		expect(run2.requests(site).every((request) => request.method === 'HEAD')).toBe(true);
		// An audit of every 304 still catches them.
		const run3 = await sweepSites(fx.dir, [site], [...head, '--audit', '1']);
		expect(run3.changed).toEqual(sorted([site.urls[3]!, site.urls[11]!]));
		expect(run3.reasonOf(site.urls[3]!)).toBe('audit');
	});
});
