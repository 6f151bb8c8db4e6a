import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FLOOR, CLEAN_AUDITS_TO_HALVE, hostAuditRate } from '../../src/net/hosts/audit-rate.js';
import { planProbe } from '../../src/net/hosts/policy.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { trustDefaults } from '../../src/net/hosts/trust-options.js';
import type { HostStats } from '../../src/net/hosts/stats.js';
import type { SeenRequest } from '../helpers/server.js';
import { runCli } from '../helpers/cli.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { RECORD_VERSION } from '../../src/store/model/types.js';
import { useFixtures, sweepRun } from './fixtures.js';
import { hostRecord } from './trust-sites.js';

const PAGES = 200;
const AUDIT = 0.5;

/**
 * A site whose pages carry a strong ETag per version and answer 304 when it matches, or,
 * once `lie()` is called, to any If-None-Match at all (a stale cache in front of the site).
 */
async function site(fx: ReturnType<typeof useFixtures>) {
	const versions = new Array<number>(PAGES).fill(1);
	let lying = false;
	const server = await fx.serve((req, res) => {
		const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
		if (!(i in versions)) return void res.writeHead(404).end();
		const etag = `"p${i}-v${versions[i]}"`;
		const inm = req.headers['if-none-match'];
		if (inm !== undefined && (lying || inm === etag)) return void res.writeHead(304, { etag }).end();
		res.writeHead(200, { etag, 'content-type': 'text/plain' }).end(`page ${i} version ${versions[i]}`);
	});
	const urls = versions.map((_, i) => server.url(`/p/${i}`));
	let seen = 0;
	return {
		server,
		urls,
		lie: () => void (lying = true),
		editAll: () => versions.forEach((_, i) => versions[i]!++),
		/** Requests since the last call. */
		since(): SeenRequest[] {
			const fresh = server.requests.slice(seen);
			seen = server.requests.length;
			return fresh;
		},
	};
}

/** The unconditional GETs among one run's requests: with every page known and unchanged, those are its audits. */
const audits = (requests: readonly SeenRequest[]): number => requests.filter((request) => request.headers['if-none-match'] === undefined).length;

async function statsRow(dir: string): Promise<HostStats> {
	const result = await runCli(['stats', '--json', '--store', dir]);
	expect(result.status).toBe(0);
	return JSON.parse(result.stdout) as HostStats;
}

describe('the audit earns its cost per host', () => {
	const fx = useFixtures();
	// No verification downloads: only the random audit sends unconditional GETs to known pages.
	const sweep = (urls: readonly string[]) => sweepRun(fx.dir, urls, ['--audit', String(AUDIT), '--verify-every', 'off']);

	it("halves a clean host's rate run by run down to the floor, stores it, and goes back to --audit on a lie", async () => {
		const s = await site(fx);
		expect((await sweep(s.urls)).status).toBe(0);
		expect(audits(s.since())).toBe(PAGES); // first sight: every page downloaded once

		// Run 2: the host has no rate of its own yet, so --audit 0.5 applies: about 100 audits, all clean.
		const run2 = await sweep(s.urls);
		expect(run2.verdicts.every((verdict) => verdict.reason === '304')).toBe(true);
		const requests2 = s.since();
		const atStart = audits(requests2);
		expect(requests2.length - atStart).toBe(PAGES);
		expect(atStart).toBeGreaterThan(60);
		expect(atStart).toBeLessThan(140);
		let host = await hostRecord(fx.dir, s.server.origin);
		expect(host.auditRate).toBeUndefined();
		expect(host.cleanAudits).toBe(atStart);
		expect(await statsRow(fx.dir)).toMatchObject({ auditRate: null, cleanAudits: atStart, audits: atStart, lies: 0 });

		// Each later run starts at half the rate of the one before (its streak is long enough), down to --audit / 10.
		const rates: number[] = [];
		const counts: number[] = [];
		for (let run = 3; run <= 12; run++) {
			const verdicts = (await sweep(s.urls)).verdicts;
			expect(verdicts.every((verdict) => verdict.reason === '304')).toBe(true);
			counts.push(audits(s.since()));
			host = await hostRecord(fx.dir, s.server.origin);
			rates.push(host.auditRate!);
		}
		// 0.25, 0.125, then 0.0625 and 0.05 (the floor), each once a streak of 20 has built up again.
		// The sample is random: 200 pages at 1/8 give ~25 audits, fewer than 20 about one run in
		// seven, and at 1/16 ~12 a run, so only the first two steps are sure to come run by run;
		// ten runs leave room for the rest to reach the floor.
		expect(rates.slice(0, 2)).toEqual([0.25, 0.125]);
		expect(rates).toContain(0.0625);
		expect(rates.at(-1)).toBe(AUDIT * AUDIT_FLOOR);
		expect(rates.every((rate, i) => i === 0 || rate <= rates[i - 1]!)).toBe(true);
		// The server saw far fewer unconditional re-fetches at the floor than at the start.
		expect(counts.at(-1)!).toBeLessThan(30);
		expect(counts.at(-1)! * 3).toBeLessThan(atStart);
		const row = await statsRow(fx.dir);
		expect(row).toMatchObject({ auditRate: 0.05, lies: 0, mode: 'conditional' });
		const table = await runCli(['stats', '--store', fx.dir]);
		expect(table.stdout).toContain('AUDIT RATE');
		expect(table.stdout).toContain('5%');

		// Every page edited, and the host starts answering 304 to any ETag: the first audit catches it.
		s.editAll();
		s.lie();
		const caught = await sweep(s.urls);
		expect(caught.verdicts.some((verdict) => verdict.reason === 'audit')).toBe(true);
		s.since();
		host = await hostRecord(fx.dir, s.server.origin);
		expect(host.lies).toBeGreaterThan(0);
		expect(host.mode).toBe('unconditional');
		// Back at --audit: the rate and the streak are gone from the record.
		expect(host.auditRate).toBeUndefined();
		expect(host.cleanAudits).toBeUndefined();
		expect(await statsRow(fx.dir)).toMatchObject({ auditRate: null, cleanAudits: 0, mode: 'unconditional' });
	}, 60_000);

	it("--audit 0 leaves a host's rate and streak as they are", async () => {
		const s = await site(fx);
		await sweep(s.urls);
		await sweep(s.urls);
		const before = await hostRecord(fx.dir, s.server.origin);
		expect(before.cleanAudits).toBeGreaterThanOrEqual(CLEAN_AUDITS_TO_HALVE);
		s.since();
		expect((await sweepRun(fx.dir, s.urls, ['--audit', '0', '--verify-every', 'off'])).status).toBe(0);
		expect(audits(s.since())).toBe(0);
		const after = await hostRecord(fx.dir, s.server.origin);
		expect(after.auditRate).toBeUndefined();
		expect(after.cleanAudits).toBe(before.cleanAudits);
	}, 30_000);
});

describeRedis('the per-host audit rate on a Redis store', () => {
	const fx = useFixtures();
	let redis: TestRedis;
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		await redis?.stop();
	});

	it('is kept with the host record from run to run, as in LevelDB', async () => {
		const s = await site(fx);
		const store = redis.url('audit-rate:');
		const sweep = () => sweepRun(store, s.urls, ['--audit', String(AUDIT), '--verify-every', 'off']);
		await sweep();
		s.since();
		expect((await sweep()).status).toBe(0);
		const atStart = audits(s.since());
		expect(atStart).toBeGreaterThan(60);
		expect(await statsRow(store)).toMatchObject({ auditRate: null, cleanAudits: atStart });
		// The next run starts at half the rate, read back from Redis.
		expect((await sweep()).status).toBe(0);
		const halved = audits(s.since());
		expect(halved).toBeLessThan(atStart);
		expect(await statsRow(store)).toMatchObject({ auditRate: AUDIT / 2, cleanAudits: halved });
	}, 60_000);
});

describe('hostAuditRate and planProbe', () => {
	const record = { v: RECORD_VERSION, status: 200, lastChecked: 0, etag: '"a"' };
	const host = (auditRate?: number) => ({ ...newHostRecord(0), ...(auditRate === undefined ? {} : { auditRate }) });

	it("keeps a host's own rate within [--audit / 10, --audit]", () => {
		expect(hostAuditRate(host(), 0.02)).toBe(0.02);
		expect(hostAuditRate(host(0.005), 0.02)).toBe(0.005);
		expect(hostAuditRate(host(0.0001), 0.02)).toBeCloseTo(0.002);
		expect(hostAuditRate(host(0.05), 0.02)).toBe(0.02);
		expect(hostAuditRate(host(0.005), 0)).toBe(0);
	});

	it("samples at the host's rate, and audits a URL due for verification whatever that rate is", () => {
		const at = (value: number) => () => value;
		expect(planProbe(host(0.005), record, { ...trustDefaults, auditRate: 0.02 }, at(0.01)).plan.audit).toBe(false);
		expect(planProbe(host(0.005), record, { ...trustDefaults, auditRate: 0.02 }, at(0.004)).plan.audit).toBe(true);
		expect(planProbe(host(), record, { ...trustDefaults, auditRate: 0.02 }, at(0.01)).plan.audit).toBe(true);
		expect(planProbe(host(0.002), record, { ...trustDefaults, auditRate: 0.02 }, at(0.99), true).plan.audit).toBe(true);
	});
});
