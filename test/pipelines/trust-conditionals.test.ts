import { describe, expect, it } from 'vitest';
import type { SeenRequest } from '../helpers/server.js';
import { runCli } from '../helpers/cli.js';
import { trustDefaults } from '../../src/net/hosts/trust-options.js';
import { useFixtures } from './fixtures.js';
import { hostRecord, retestsDue, serveSite, sorted, statsRow, sweepSites, withInm, type Site, type SiteRun } from './trust-sites.js';

const LIED = 'an audited 304 hid a real change: 304s are not trusted';
const NO_FORM = 'no conditional form gets 304s (tried: the validators as sent)';

/**
 * Per page: a request with If-None-Match that got a 304 must be followed by an
 * unconditional GET of the same page (its audit), and nothing else is sent.
 */
function expectAudited(site: Site, run: SiteRun): void {
	const requests = run.requests(site);
	for (const url of site.urls) {
		const mine: SeenRequest[] = requests.filter((request) => site.server.url(request.path) === url);
		if (mine[0]?.headers['if-none-match'] !== undefined) {
			expect(mine, url).toHaveLength(2);
			expect(mine[1]!.headers['if-none-match'], url).toBeUndefined();
		} else {
			expect(mine, url).toHaveLength(1);
		}
	}
}

/** Runs with edits on a host that should be distrusted: only re-tests may carry If-None-Match. */
async function distrustedRun(dir: string, site: Site, pages: number[], extra: string[] = []): Promise<SiteRun> {
	const { sinceRetest } = await hostRecord(dir, site.origin);
	const edited = site.edit(...pages);
	const run = await sweepSites(dir, [site], extra);
	expect(run.changed).toEqual(sorted(edited));
	expect(withInm(run.requests(site))).toHaveLength(retestsDue(sinceRetest, site.urls.length));
	return run;
}

describe('per-host trust: hosts whose 304s cannot be taken at face value', () => {
	const fx = useFixtures();

	it('304 to any If-None-Match: with --audit 1 every edit is caught in the run it was made, then the host goes unconditional', async () => {
		const site = await serveSite(fx.serve, 'lying-304');
		const run1 = await sweepSites(fx.dir, [site]);
		expect(run1.changed).toEqual(sorted(site.urls));

		// --audit 1 re-fetches every 304 unconditionally: no edit can hide behind one.
		const edited2 = site.edit(3, 11, 24);
		const run2 = await sweepSites(fx.dir, [site], ['--audit', '1']);
		expect(run2.changed).toEqual(sorted(edited2));
		// Page 3 was asked with If-None-Match before anything was caught: the audit is what found it.
		expect(run2.reasonOf(edited2[0]!)).toBe('audit');
		for (const url of site.urls) expect(run2.reasonOf(url), url).toMatch(edited2.includes(url) ? /^(audit|new-body)$/ : /^(304|same-hash)$/);
		expectAudited(site, run2);
		const caught = run2.verdicts.filter((verdict) => verdict.reason === 'audit').length;
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ mode: 'unconditional', reason: LIED, lies: caught });

		// Unconditional from now on, whatever --audit says: edits show in the body hash; a
		// 1-in-50 re-test may send If-None-Match, and its 304 is always audited.
		for (const pages of [
			[0, 17],
			[8, 29],
		]) {
			const run = await distrustedRun(fx.dir, site, pages, ['--audit', '0']);
			expectAudited(site, run);
			for (const url of run.changed) expect(run.reasonOf(url)).toMatch(/^(audit|new-body)$/);
		}
		// By run 4 the 1-in-50 re-test has sent a canary ETag, and the liar 304'd that too.
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({
			runs: 4,
			mode: 'unconditional',
			overridden: false,
			reason: expect.stringMatching(/^(an audited 304 hid a real change|still lying: answered 304 to a validator that cannot match)/),
			etag: 'sent',
			lies: caught,
		});
	});

	it('304 to any If-None-Match: an edit hidden in a run without audits is reported by the next audited run', async () => {
		const site = await serveSite(fx.serve, 'lying-304');
		await sweepSites(fx.dir, [site]);

		// With --audit 0 a lying 304 can't be told from an honest one: the edit slips through...
		const hidden = site.edit(5);
		const run2 = await sweepSites(fx.dir, [site], ['--audit', '0']);
		expect(run2.changed).toEqual([]);
		expect(run2.verdicts.every((verdict) => verdict.reason === '304')).toBe(true);
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ mode: 'conditional', lies: 0 });

		// ...but its stored hash is still the old one, so the first audit of it reports it.
		const edited3 = site.edit(9);
		const run3 = await sweepSites(fx.dir, [site], ['--audit', '1']);
		expect(run3.changed).toEqual(sorted([...hidden, ...edited3]));
		expect(run3.reasonOf(hidden[0]!)).toBe('audit');
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ mode: 'unconditional', reason: LIED });

		const run4 = await distrustedRun(fx.dir, site, [1, 22]);
		expectAudited(site, run4);
	});

	it("conditionals ignored (always 200, stable ETag): hash-only after run 2's form check, then If-None-Match only on re-tests or by hand", async () => {
		const site = await serveSite(fx.serve, 'ignores-conditionals');
		const run1 = await sweepSites(fx.dir, [site]);
		expect(run1.changed).toEqual(sorted(site.urls));

		const edited2 = site.edit(3, 11, 24);
		const run2 = await sweepSites(fx.dir, [site]);
		expect(run2.changed).toEqual(sorted(edited2));
		for (const url of site.urls) expect(run2.reasonOf(url), url).toBe(edited2.includes(url) ? 'new-body' : 'same-hash');
		// Each probe of the form check sends If-None-Match, leaves the full answer unread (its ETag
		// is the one sent), finds no other form to try, and reads the body with If-None-Match again:
		// two per page until formSample pages have shown that nothing gets a 304, plus those planned
		// meanwhile (in flight, --per-host 4, and the one just answered).
		const sent = withInm(run2.requests(site)).length;
		expect(sent).toBeGreaterThanOrEqual(2 * trustDefaults.formSample);
		expect(sent).toBeLessThanOrEqual(2 * (trustDefaults.formSample + 4 + 1));
		expect(withInm(run2.requests(site).slice(2 * (trustDefaults.formSample + 2 * 4)))).toEqual([]);
		const row2 = await statsRow(fx.dir, site.origin);
		expect(row2).toMatchObject({ runs: 2, mode: 'hash-only', form: 'none', overridden: false, notModified: 0, etag: 'sent' });
		expect(row2.reason).toBe(NO_FORM);

		await distrustedRun(fx.dir, site, [0, 17]);
		await distrustedRun(fx.dir, site, [8, 29]);
		expect((await statsRow(fx.dir, site.origin)).mode).toBe('hash-only');

		// A hand override wins: every stored ETag goes out again, and the derived mode is still shown.
		expect((await runCli(['hosts', 'set', site.origin, '--mode', 'conditional', '--store', fx.dir])).status).toBe(0);
		const set = await statsRow(fx.dir, site.origin);
		expect(set).toMatchObject({ mode: 'conditional', overridden: true });
		expect(set.reason).toBe(`set by hand (derived: hash-only, ${NO_FORM})`);
		const edited5 = site.edit(6);
		const run5 = await sweepSites(fx.dir, [site]);
		expect(run5.changed).toEqual(edited5);
		expect(withInm(run5.requests(site))).toHaveLength(30);

		// Handed back to measurement: hash-only again.
		expect((await runCli(['hosts', 'set', new URL(site.origin).hostname, '--mode', 'auto', '--store', fx.dir])).status).toBe(0);
		expect(await statsRow(fx.dir, site.origin)).toMatchObject({ mode: 'hash-only', overridden: false });
		await distrustedRun(fx.dir, site, [14]);
	});
});
