import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useFixtures } from './fixtures.js';
import { bodyOf, expectEchoed, serveSite, sorted, statsRow, sweepSites, withIms, withInm, type Site, type SiteRun } from './trust-sites.js';

// Pages edited before runs 2, 3 and 4 (run 1 finds every page new).
const EDITS = [
	[3, 11, 24],
	[0, 17],
	[8, 15, 29],
];
const EDITED = EDITS.flat().length;
const TRUSTED = 'new host: validators trusted until measured';

/**
 * Edits the pages of each EDITS entry and sweeps again, expecting exactly those pages
 * reported; `check` then looks at the run, what was edited, and the run before it.
 */
async function sweepEachEdit(dir: string, site: Site, first: SiteRun, check: (run: SiteRun, edited: string[], previous: SiteRun) => void): Promise<void> {
	let previous = first;
	for (const pages of EDITS) {
		const edited = site.edit(...pages);
		const run = await sweepSites(dir, [site]);
		expect(run.changed).toEqual(sorted(edited));
		check(run, edited, previous);
		previous = run;
	}
}

describe('per-host trust: hosts whose validators work', () => {
	const fx = useFixtures();

	it('strong ETag: every unchanged page is a 304, exactly the edited pages are reported, the host stays conditional', async () => {
		const site = await serveSite(fx.serve, 'strong-etag');
		const first = await sweepSites(fx.dir, [site]);
		expect(first.changed).toEqual(sorted(site.urls));
		expect(withInm(first.requests(site))).toEqual([]);

		await sweepEachEdit(fx.dir, site, first, (run, edited, before) => {
			expect(run.status).toBe(0);
			for (const url of site.urls) expect(run.reasonOf(url), url).toBe(edited.includes(url) ? 'new-body' : '304');
			// Each page's stored ETag goes back verbatim, nothing else is conditional.
			expectEchoed(site, before, run, 'etag');
			expect(withIms(run.requests(site))).toEqual([]);
		});

		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			urls: 30,
			runs: 4,
			conditional: 90,
			notModified: 90 - EDITED,
			ratio304: (90 - EDITED) / 90,
			mode: 'conditional',
			overridden: false,
			reason: TRUSTED,
			etag: 'sent',
			lastModified: 'sent',
			audits: 0,
			lies: 0,
			method: 'get',
			errors: 0,
		});
	});

	it('weak ETag: 304s against W/ tags say weak: true, edits are reported, the W/ prefix goes back intact', async () => {
		const site = await serveSite(fx.serve, 'weak-etag');
		const first = await sweepSites(fx.dir, [site]);
		expect(first.changed).toEqual(sorted(site.urls));
		expect(first.verdicts.every((verdict) => String(verdict.etag).startsWith('W/"') && !('weak' in verdict))).toBe(true);

		await sweepEachEdit(fx.dir, site, first, (run, edited, before) => {
			for (const verdict of run.verdicts) {
				if (edited.includes(String(verdict.url))) expect(verdict).toMatchObject({ changed: true, reason: 'new-body' });
				else expect(verdict).toMatchObject({ changed: false, reason: '304', weak: true });
				if (verdict.reason !== '304') expect(verdict).not.toHaveProperty('weak');
			}
			expectEchoed(site, before, run, 'etag');
			for (const request of run.requests(site)) expect(request.headers['if-none-match']).toMatch(/^W\/"p\d+-v\d+"$/);
		});

		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			conditional: 90,
			notModified: 90 - EDITED,
			mode: 'conditional',
			reason: TRUSTED,
			etag: 'sent',
		});
	});

	it('Last-Modified only: the date goes back as If-Modified-Since byte for byte, 304s for the rest, edits reported', async () => {
		const site = await serveSite(fx.serve, 'last-modified');
		const first = await sweepSites(fx.dir, [site]);
		expect(first.changed).toEqual(sorted(site.urls));
		expect(first.verdicts.every((verdict) => typeof verdict.lastModified === 'string' && !('etag' in verdict))).toBe(true);

		await sweepEachEdit(fx.dir, site, first, (run, edited, before) => {
			for (const url of site.urls) expect(run.reasonOf(url), url).toBe(edited.includes(url) ? 'new-body' : '304');
			expectEchoed(site, before, run, 'lastModified');
			expect(withInm(run.requests(site))).toEqual([]);
		});

		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			conditional: 90,
			notModified: 90 - EDITED,
			mode: 'conditional',
			reason: TRUSTED,
			etag: 'sent',
			lastModified: 'sent',
			errors: 0,
		});
	});

	it('no validators: nothing conditional is ever sent, the body hash finds exactly the edits', async () => {
		const site = await serveSite(fx.serve, 'no-validators');
		const run1 = await sweepSites(fx.dir, [site]);
		expect(run1.changed).toEqual(sorted(site.urls));

		for (const pages of EDITS) {
			const edited = site.edit(...pages);
			const run = await sweepSites(fx.dir, [site]);
			expect(run.changed).toEqual(sorted(edited));
			for (const url of site.urls) expect(run.reasonOf(url), url).toBe(edited.includes(url) ? 'new-body' : 'same-hash');
			expect(run.requests(site)).toHaveLength(30);
			expect(withInm(run.requests(site))).toEqual([]);
			expect(withIms(run.requests(site))).toEqual([]);
		}

		// Nothing to measure: the host keeps its initial mode, with no conditional requests counted.
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			urls: 30,
			runs: 4,
			conditional: 0,
			notModified: 0,
			ratio304: null,
			mode: 'conditional',
			reason: TRUSTED,
			audits: 0,
			errors: 0,
		});
	});

	it('Latin-1 bytes with no charset: hashed as bytes, so unchanged pages are never reported across runs', async () => {
		const site = await serveSite(fx.serve, 'latin1');
		const raw = bodyOf('latin1', 5, 1);
		expect(raw.includes(0xe9)).toBe(true);
		const run1 = await sweepSites(fx.dir, [site]);
		expect(run1.changed).toEqual(sorted(site.urls));
		// The hash is of the bytes on the wire, not of a text decoding of them.
		const hash = run1.verdicts.find((verdict) => verdict.url === site.urls[5])?.hash;
		expect(hash).toBe(createHash('sha256').update(raw).digest('hex').slice(0, 32));
		expect(hash).not.toBe(
			createHash('sha256')
				.update(Buffer.from(raw.toString('utf8')))
				.digest('hex')
				.slice(0, 32),
		);

		for (const pages of [...EDITS, []]) {
			const edited = site.edit(...pages);
			const run = await sweepSites(fx.dir, [site]);
			expect(run.changed).toEqual(sorted(edited));
			for (const url of site.urls) expect(run.reasonOf(url), url).toBe(edited.includes(url) ? 'new-body' : 'same-hash');
			expect(run.verdicts.find((verdict) => verdict.url === site.urls[5])?.hash).toBe(hash);
			expect(withInm(run.requests(site)).concat(withIms(run.requests(site)))).toEqual([]);
		}

		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ urls: 30, runs: 5, conditional: 0, mode: 'conditional', reason: TRUSTED });
	});
});
