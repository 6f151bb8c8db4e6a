import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import type { UrlRecord } from '../../../src/store/model/types.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DAY = 86_400_000;

describe('revisit prune', () => {
	let a: TestServer;
	let b: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		a = await startServer((req, res) => res.end(`a ${req.url}`));
		b = await startServer((req, res) => res.end(`b ${req.url}`));
		store = await tempDir();
	});
	afterEach(async () => {
		await a.close();
		await b.close();
		await store.cleanup();
	});
	const urls = () => [a.url('/1'), a.url('/2'), a.url('/3'), b.url('/1'), b.url('/2')];
	const prune = (...args: string[]) => runCli(['prune', '--store', store.dir, ...args]);

	async function contents() {
		const db = await LevelStore.open(store.dir);
		try {
			const records: Record<string, UrlRecord> = {};
			for await (const [key, value] of db.entries()) records[key] = value;
			const hosts: string[] = [];
			for await (const [key] of db.hostEntries()) hosts.push(key);
			return { urls: Object.keys(records), records, hosts };
		} finally {
			await db.close();
		}
	}

	/** Sweeps every URL, then backdates lastChecked of a's /1 and all of b's by 40 days. */
	async function sweepAndAge(): Promise<void> {
		expect((await runCli(['sweep', '--store', store.dir, '-q', '--audit', '0'], urls().join('\n'))).status).toBe(0);
		const { records } = await contents();
		const db = await LevelStore.open(store.dir);
		try {
			const old = [a.url('/1'), b.url('/1'), b.url('/2')];
			await db.batch(old.map((key) => ({ type: 'put', key, value: { ...records[key]!, lastChecked: Date.now() - 40 * DAY } })));
		} finally {
			await db.close();
		}
	}

	it('deletes only URL records older than the cutoff, and hosts left without any', async () => {
		await sweepAndAge();
		const before = await contents();
		expect(before.hosts.sort()).toEqual([a.origin, b.origin].sort());

		const dry = await prune('--older-than', '30d', '--dry-run');
		expect(dry.status).toBe(0);
		expect(dry.stdout).toBe('');
		expect(dry.stderr).toMatch(/^revisit: would prune 3 URL records and 1 host \(not checked for 30d, since .+Z\); kept 2 URL records and 1 host\n$/);
		expect(await contents()).toEqual(before);

		expect((await prune('--older-than', '41d')).stderr).toContain('pruned 0 URL records and 0 hosts');
		const run = await prune('--older-than', '30d');
		expect(run.status).toBe(0);
		expect(run.stderr).toMatch(/^revisit: pruned 3 URL records and 1 host \(/);
		// Their version logs go with them (the texts they kept are shared with the pages kept: `page /N` differs only by N).
		expect(run.stderr).toMatch(/freed .*3 version logs\n$/);
		const after = await contents();
		expect(after.urls.sort()).toEqual([a.url('/2'), a.url('/3')].sort());
		expect(after.hosts).toEqual([a.origin]);
		expect(after.records[a.url('/2')]).toEqual(before.records[a.url('/2')]);

		const again = await runCli(['sweep', '--store', store.dir, '-q', '--audit', '0'], urls().join('\n'));
		expect(again.stdout.split('\n').filter(Boolean).sort()).toEqual([a.url('/1'), b.url('/1'), b.url('/2')].sort());
	});

	it('keeps a host whose mode was set by hand, and the run history', async () => {
		await sweepAndAge();
		expect((await runCli(['hosts', 'set', b.origin, '--mode', 'hash-only', '--store', store.dir])).status).toBe(0);
		const run = await prune('--older-than', '1h');
		expect(run.stderr).toContain('pruned 3 URL records and 0 hosts');
		expect(run.stderr).toContain('1 of them without URLs but with a mode set by hand');
		expect((await contents()).hosts.sort()).toEqual([a.origin, b.origin].sort());
		expect((await runCli(['history', '--store', store.dir, '--json'])).stdout.trim().split('\n')).toHaveLength(1);
	});

	it('exits 2 naming --older-than when it is missing or not a duration', async () => {
		for (const args of [[], ['--older-than', 'soon'], ['--older-than', '0d'], ['--older-than']]) {
			const run = await prune(...args);
			expect(run.status, args.join(' ')).toBe(2);
			expect(run.stderr).toContain('older-than');
		}
	});

	it('teaches with --help', async () => {
		const { stdout } = await runCli(['prune', '--help']);
		expect(stdout).toContain('--older-than');
		expect(stdout).toContain('--dry-run');
		expect(stdout).toContain('revisit prune --older-than 30d --dry-run');
	});
});
