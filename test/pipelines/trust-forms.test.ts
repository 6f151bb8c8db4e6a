import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { LevelStore } from '../../src/store/level/store.js';
import { useFixtures } from './fixtures.js';
import { hostRecord, serveSite, sorted, statsRow, sweepSites, withIms } from './trust-sites.js';

const BARE_TAG = 'ETag ignored as sent; the ETag without its content-coding suffix gets 304s';
const BARE_TAG_IMS =
	'ETag ignored as sent; the ETag without its content-coding suffix, with If-Modified-Since, gets 304s: ' +
	'chosen as the most telling form that does (the tag carries the size as well as the time, so a redeploy that keeps file times is still seen)';
const bareTags = (requests: ReadonlyArray<{ headers: Record<string, string | string[] | undefined> }>) =>
	requests.every((request) => /^"p\d+-v\d+"$/.test(String(request.headers['if-none-match'])));

describe('per-host trust: which conditional form a host honours', () => {
	const fx = useFixtures();

	it(
		'an ETag with a coding suffix that never matches: the bare tag with If-Modified-Since (not If-Modified-Since alone, ' +
			'which carries less), measured in the first unchanged run without reading a body',
		async () => {
			const site = await serveSite(fx.serve, 'coding-suffix');
			const run1 = await sweepSites(fx.dir, [site]);
			expect(run1.changed).toEqual(sorted(site.urls));
			expect(run1.verdicts.every((verdict) => String(verdict.etag).endsWith('-gzip"'))).toBe(true);

			// Run 2, nothing edited: every page is a 304, none read in full. The first probes send both
			// validators, drop the full answer unread, and find that the tag without its suffix, with
			// If-Modified-Since, gets a 304: tried before If-Modified-Since alone, as it tells more.
			const run2 = await sweepSites(fx.dir, [site]);
			expect(run2.changed).toEqual([]);
			expect(run2.verdicts.map((verdict) => verdict.reason)).toEqual(site.urls.map(() => '304'));
			expect(run2.verdicts.every((verdict) => verdict.bytes === 0)).toBe(true);
			expect(await statsRow(fx.dir, site.origin)).toMatchObject({ mode: 'conditional', form: 'etag-stripped-both', reason: BARE_TAG_IMS, lies: 0 });
			expect(
				run2
					.requests(site)
					.some(
						(request) =>
							request.headers['if-none-match'] !== undefined &&
							request.headers['if-modified-since'] === undefined &&
							!String(request.headers['if-none-match']).endsWith('-gzip"'),
					),
			).toBe(false);
			// Those planned before the host was settled asked with both; the rest with the bare tag and If-Modified-Since.
			const settled = run2.requests(site).slice(3 * (1 + 4 + 1));
			expect(bareTags(settled)).toBe(true);
			expect(withIms(settled)).toHaveLength(settled.length);

			// Edits are reported; every request is the bare tag with If-Modified-Since, one per page.
			const edited = site.edit(4, 17, 29);
			const run3 = await sweepSites(fx.dir, [site]);
			expect(run3.changed).toEqual(sorted(edited));
			expect(run3.requests(site)).toHaveLength(30);
			expect(bareTags(run3.requests(site))).toBe(true);
			expect(withIms(run3.requests(site))).toHaveLength(30);

			const run4 = await sweepSites(fx.dir, [site]);
			expect(run4.changed).toEqual([]);
			expect(run4.requests(site)).toHaveLength(30);
			expect(run4.verdicts.every((verdict) => verdict.reason === '304')).toBe(true);
			// `revisit stats` names the form in its table too.
			const table = await runCli(['stats', '--store', fx.dir]);
			expect(table.stdout).toContain('ETag stripped + IMS');
			expect(table.stdout).toContain('the most telling form');
		},
	);

	it('the same without Last-Modified: the ETag without its suffix', async () => {
		const site = await serveSite(fx.serve, 'coding-suffix-no-lm');
		await sweepSites(fx.dir, [site]);
		const run2 = await sweepSites(fx.dir, [site]);
		expect(run2.verdicts.map((verdict) => verdict.reason)).toEqual(site.urls.map(() => '304'));
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ mode: 'conditional', form: 'etag-stripped', reason: BARE_TAG });

		const edited = site.edit(8);
		const run3 = await sweepSites(fx.dir, [site]);
		expect(run3.changed).toEqual(edited);
		for (const request of run3.requests(site)) expect(request.headers['if-none-match']).toMatch(/^"p\d+-v\d+"$/);
		expect(run3.requests(site)).toHaveLength(30);
	});

	it('a host made hash-only before forms were measured is measured, and trusted again with the form that works', async () => {
		const site = await serveSite(fx.serve, 'coding-suffix');
		await sweepSites(fx.dir, [site]);
		// As an earlier revisit left it: hash-only, no form measured.
		const host = await hostRecord(fx.dir, site.origin);
		const store = await LevelStore.open(fx.dir);
		await store.batch([
			{
				type: 'putHost',
				key: site.origin,
				value: { ...host, mode: 'hash-only', modeReason: 'conditionals ignored: 0% of 20 unchanged answers were 304 (threshold 5%)' },
			},
		]);
		await store.close();

		const run2 = await sweepSites(fx.dir, [site]);
		expect(run2.verdicts.map((verdict) => verdict.reason)).toEqual(site.urls.map(() => '304'));
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ mode: 'conditional', form: 'etag-stripped-both', reason: `re-trusted: ${BARE_TAG_IMS}` });
	});

	it('a candidates sweep measures the form from headers alone: no candidate from a host that honours If-Modified-Since', async () => {
		const site = await serveSite(fx.serve, 'coding-suffix');
		await sweepSites(fx.dir, [site]);
		const candidates = await runCli(['sweep', '--candidates', '--audit', '0', '-q', '--store', fx.dir], site.urls.map((url) => `${url}\n`).join(''));
		expect(candidates).toMatchObject({ status: 0, stdout: '' });
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ form: 'etag-stripped-both' });
	});

	it('a host that honours what it is sent costs no extra request: the first 304 settles it', async () => {
		const site = await serveSite(fx.serve, 'strong-etag');
		await sweepSites(fx.dir, [site]);
		const run2 = await sweepSites(fx.dir, [site]);
		expect(run2.requests(site)).toHaveLength(30);
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ form: 'both', reason: 'new host: validators trusted until measured' });
	});
});
