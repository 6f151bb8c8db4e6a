import { describe, expect, it } from 'vitest';
import { trustDefaults } from '../../src/net/hosts/trust-options.js';
import { useFixtures } from './fixtures.js';
import { expectEchoed, hostRecord, retestsDue, serveSite, sorted, statsRow, sweepSites, withIms, withInm, type Site } from './trust-sites.js';

// The --per-host default. The probes planned before the answer that settles the host's
// form is observed are at most those in flight plus the one just answered.
const PER_HOST = 4;

/** The reason `revisit stats` gives for a host where no conditional form gets a 304. */
const NO_FORM = 'no conditional form gets 304s (tried: the validators as sent)';

/**
 * Sweeps a site whose validator (ETag or Last-Modified) is new on every response while
 * the bodies stay the same, four runs with edits, and checks that run 2's form check
 * finds no form that gets a 304 (the stored validator, then the new one, both answered
 * in full), so the host goes hash-only, and the validator is then sent only on the
 * 1-in-50 re-tests.
 */
async function rotating(dir: string, site: Site, header: 'if-none-match' | 'if-modified-since'): Promise<void> {
	const carrying = header === 'if-none-match' ? withInm : withIms;
	const run1 = await sweepSites(dir, [site]);
	expect(run1.changed).toEqual(sorted(site.urls));

	// Run 2: each probe sends the stored validator; an unchanged body with a new one is asked
	// again with the new one, until formSample such pages have shown that no form works.
	const edited2 = site.edit(20, 27);
	const run2 = await sweepSites(dir, [site]);
	expect(run2.changed).toEqual(sorted(edited2));
	for (const url of site.urls) expect(run2.reasonOf(url), url).toBe(edited2.includes(url) ? 'new-body' : 'same-hash');
	const sent = carrying(run2.requests(site)).length;
	expect(sent).toBeGreaterThanOrEqual(2 * trustDefaults.formSample);
	expect(sent).toBeLessThanOrEqual(2 * (trustDefaults.formSample + PER_HOST + 1));
	// Once settled it is not sent again in the run: the last requests carry none (arrival
	// order may differ from planning order by the requests in flight).
	expect(carrying(run2.requests(site).slice(2 * (trustDefaults.formSample + 2 * PER_HOST)))).toEqual([]);
	expect(await statsRow(dir, site.origin)).toMatchObject({ mode: 'hash-only', form: 'none', reason: NO_FORM });

	for (const pages of [
		[4, 9, 28],
		[0, 13],
	]) {
		const { sinceRetest } = await hostRecord(dir, site.origin);
		const edited = site.edit(...pages);
		const run = await sweepSites(dir, [site]);
		expect(run.changed).toEqual(sorted(edited));
		for (const url of site.urls) expect(run.reasonOf(url), url).toBe(edited.includes(url) ? 'new-body' : 'same-hash');
		// Only re-tests carry the validator: one probe in 50, counted across runs.
		expect(carrying(run.requests(site))).toHaveLength(retestsDue(sinceRetest, site.urls.length));
		expect(run.requests(site)).toHaveLength(30);
	}
}

describe('per-host trust: validators that change while the body does not', () => {
	const fx = useFixtures();

	it('a new ETag on every response: no conditional form works, hash-only after run 2, then the ETag only on re-tests', async () => {
		const site = await serveSite(fx.serve, 'rotating-etag');
		await rotating(fx.dir, site, 'if-none-match');
		const row = await statsRow(fx.dir, site.origin);
		// The ETag is switched off too: unchanged bodies kept coming with new ETags.
		expect(row).toMatchObject({
			urls: 30,
			runs: 4,
			mode: 'hash-only',
			form: 'none',
			etag: 'off',
			lastModified: 'sent',
			notModified: 0,
			lies: 0,
			errors: 0,
			reason: NO_FORM,
		});
	});

	it('Last-Modified = now on every response: no conditional form works, hash-only after run 2, then Last-Modified only on re-tests', async () => {
		const site = await serveSite(fx.serve, 'last-modified-now');
		await rotating(fx.dir, site, 'if-modified-since');
		const row = await statsRow(fx.dir, site.origin);
		expect(row).toMatchObject({
			urls: 30,
			runs: 4,
			mode: 'hash-only',
			form: 'none',
			etag: 'sent',
			lastModified: 'off',
			notModified: 0,
			errors: 0,
			reason: NO_FORM,
		});
		// Never an ETag to send.
		expect(withInm(site.server.requests)).toEqual([]);
	});

	it('ETag derived from gzip bytes: switching to br sends no stale ETag and raises no false alarm, and br ETags work after', async () => {
		const site = await serveSite(fx.serve, 'gzip-etag');
		const gzip = ['--accept-encoding', 'gzip'];
		const br = ['--accept-encoding', 'br'];
		const run1 = await sweepSites(fx.dir, [site], gzip);
		expect(run1.changed).toEqual(sorted(site.urls));
		expect(run1.verdicts.every((verdict) => verdict.status === 200)).toBe(true);

		const edited2 = site.edit(2, 19);
		const run2 = await sweepSites(fx.dir, [site], gzip);
		expect(run2.changed).toEqual(sorted(edited2));
		for (const url of site.urls) expect(run2.reasonOf(url), url).toBe(edited2.includes(url) ? 'new-body' : '304');
		expectEchoed(site, run1, run2, 'etag');

		// Run 3 under br: the gzip ETags can't match br bytes, so none is sent; the hash of the decoded body decides.
		const edited3 = site.edit(7, 25);
		const run3 = await sweepSites(fx.dir, [site], br);
		expect(run3.changed).toEqual(sorted(edited3));
		for (const url of site.urls) expect(run3.reasonOf(url), url).toBe(edited3.includes(url) ? 'new-body' : 'same-hash');
		expect(run3.requests(site)).toHaveLength(30);
		expect(withInm(run3.requests(site))).toEqual([]);
		for (const request of run3.requests(site)) expect(request.headers['accept-encoding']).toBe('br');

		// Run 4, still br: the br ETags stored in run 3 go back and earn 304s.
		const edited4 = site.edit(11);
		const run4 = await sweepSites(fx.dir, [site], br);
		expect(run4.changed).toEqual(sorted(edited4));
		for (const url of site.urls) expect(run4.reasonOf(url), url).toBe(edited4.includes(url) ? 'new-body' : '304');
		expectEchoed(site, run3, run4, 'etag');

		// An encoding switch is not a rotating ETag: the host keeps sending ETags.
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			runs: 4,
			mode: 'conditional',
			etag: 'sent',
			reason: 'new host: validators trusted until measured',
			notModified: 28 + 29,
			errors: 0,
		});
	});
});
