import { describe, expect, it } from 'vitest';
import type { HostStats } from '../../src/net/hosts/stats.js';
import { useFixtures } from './fixtures.js';
import { BEHAVIOURS, PAGES, serveSite, sorted, statsRow, sweepSites, type Behaviour, type Site } from './trust-sites.js';

// One sweep over every fixture at once: HEAD sampled per host, every 304 audited (the
// lying host needs it), retries for the busy host.
const FLAGS = ['--method', 'auto', '--audit', '1', '--retries', '2'];

/** What each host's stats row says after the runs below: trust is decided per host. */
const EXPECTED: Record<Behaviour, Partial<HostStats>> = {
	'strong-etag': { mode: 'conditional', form: 'both', etag: 'sent', method: 'head' },
	'weak-etag': { mode: 'conditional', etag: 'sent', method: 'head' },
	'last-modified': { mode: 'conditional', lastModified: 'sent', method: 'head' },
	'no-validators': { mode: 'conditional', conditional: 0 },
	'rotating-etag': { mode: 'hash-only', form: 'none', etag: 'off', method: 'get' },
	'last-modified-now': { mode: 'hash-only', form: 'none', lastModified: 'off', method: 'get' },
	// Its 1-in-50 re-tests send a canary ETag that cannot match; a liar 304s that too.
	'lying-304': { mode: 'unconditional', reason: 'still lying: answered 304 to a validator that cannot match' },
	'ignores-conditionals': { mode: 'hash-only' },
	'gzip-etag': { mode: 'conditional', etag: 'sent' },
	'head-405': { mode: 'conditional', method: 'get', methodReason: 'HEAD answered 405' },
	'head-stale': { mode: 'conditional', method: 'get' },
	moved: { mode: 'conditional' },
	latin1: { mode: 'conditional', conditional: 0 },
	'busy-503': { mode: 'conditional', errors: 0 },
	'gone-410': { mode: 'conditional' },
	'coding-suffix': {
		mode: 'conditional',
		form: 'etag-stripped-both',
		reason: expect.stringContaining('the ETag without its content-coding suffix, with If-Modified-Since, gets 304s'),
	},
	'coding-suffix-no-lm': { mode: 'conditional', form: 'etag-stripped' },
};

/** A few pages per site, different for each site and run. */
const pick = (k: number, run: number): number[] => [(k * 7 + run * 5) % PAGES, (k * 11 + run * 13 + 1) % PAGES];

describe('per-host trust: every fixture in one sweep', () => {
	const fx = useFixtures();

	it('reports exactly the edited pages on every run, each host judged by its own record', async () => {
		const sites: Site[] = [];
		for (const behaviour of BEHAVIOURS) sites.push(await serveSite(fx.serve, behaviour));
		const all = sites.flatMap((site) => site.urls);
		expect(new Set(sites.map((site) => site.origin)).size).toBe(BEHAVIOURS.length);

		const run1 = await sweepSites(fx.dir, sites, FLAGS);
		expect(run1.changed).toEqual(sorted(all));

		// Runs 2 and 3 under gzip, run 4 switches to br (no stored ETag is sent), run 5 br with no edits.
		const runs = [
			{ extra: [], edits: true },
			{ extra: [], edits: true },
			{ extra: ['--accept-encoding', 'br'], edits: true },
			{ extra: ['--accept-encoding', 'br'], edits: false },
		];
		for (const [r, { extra, edits }] of runs.entries()) {
			const expected = edits
				? sites.flatMap((site, k) => {
						const [a, b] = pick(k, r);
						// The 410 site deletes a page where the others edit one.
						return site.behaviour === 'gone-410' ? [...site.remove(a!), ...site.edit(b!)] : site.edit(a!, b!);
					})
				: [];
			const run = await sweepSites(fx.dir, sites, [...FLAGS, ...extra]);
			expect(run.changed, `run ${r + 2}`).toEqual(sorted(expected));
			for (const verdict of run.verdicts) {
				if (verdict.changed) expect(verdict.reason, String(verdict.url)).toMatch(/^(new-body|audit|gone)$/);
				else expect(verdict.reason, String(verdict.url)).toMatch(/^(304|same-hash|gone)$/);
			}
		}

		for (const site of sites) {
			expect(await statsRow(fx.dir, site.origin), site.behaviour).toMatchObject({ urls: PAGES, runs: 5, ...EXPECTED[site.behaviour] });
		}
		// 450 URLs, five runs, audits and 1 s Retry-After waits: more than the default 30 s allowance on a slow machine.
	}, 120_000);
});
