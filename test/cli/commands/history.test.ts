import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import { ndjson, runCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/** Parses a Prometheus text exposition, failing on any line that is neither a comment nor `name{labels} value`. */
function parseMetrics(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
	const samples = [];
	for (const line of text.split('\n')) {
		if (line === '' || line.startsWith('#')) continue;
		const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (\S+)$/.exec(line);
		if (!match) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
		const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
		const value = Number(match[3]);
		if (Number.isNaN(value) && match[3] !== 'NaN') throw new Error(`bad value in ${JSON.stringify(line)}`);
		samples.push({ name: match[1]!, labels, value });
	}
	return samples;
}

describe('revisit history', () => {
	// /e0../e4 send strong ETags (and answer 304), /n0../n4 send no validators, /err is a 500.
	const version: Record<string, number> = {};
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	const paths = [...Array.from({ length: 5 }, (_, i) => `/e${i}`), ...Array.from({ length: 5 }, (_, i) => `/n${i}`)];
	beforeEach(async () => {
		for (const key of Object.keys(version)) delete version[key];
		server = await startServer((req, res) => {
			if (req.url === '/err') {
				res.statusCode = 500;
				res.end('broken');
				return;
			}
			const body = `${req.url} version ${version[req.url!] ?? 0}\n`.padEnd(1000, '.');
			if (req.url!.startsWith('/e')) {
				const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
				res.setHeader('etag', etag);
				if (req.headers['if-none-match'] === etag) {
					res.statusCode = 304;
					res.end();
					return;
				}
			}
			res.end(body);
		});
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});
	const sweep = () =>
		runCli(['sweep', '--store', store.dir, '-q', '--audit', '0', '--retries', '0'], [...paths, '/err'].map((p) => `${server.url(p)}\n`).join(''));
	const history = (...args: string[]) => runCli(['history', '--store', store.dir, ...args]);

	/** Three sweeps: all new; nothing edited; /e0 and /n3 edited. */
	async function threeSweeps(): Promise<void> {
		expect((await sweep()).status).toBe(1);
		expect((await sweep()).stdout).toBe('');
		version['/e0'] = 1;
		version['/n3'] = 1;
		expect((await sweep()).stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/e0'), server.url('/n3')]);
	}

	it('prints one JSON row per run, oldest first, with the true counts and bytes', async () => {
		await threeSweeps();
		const { status, stdout } = await history('--json');
		expect(status).toBe(0);
		const rows = ndjson(stdout);
		expect(rows).toHaveLength(3);
		expect(rows[0]).toMatchObject({
			urls: 11,
			changed: 10,
			notModified: 0,
			sameHash: 0,
			errors: 1,
			bytes: 10_000 + 6,
			fullBytes: 10_006,
			bytesSaved: 0,
			conditional: 0,
			ratio304: null,
			blockedHosts: [],
		});
		expect(rows[1]).toMatchObject({
			urls: 11,
			changed: 0,
			notModified: 5,
			sameHash: 5,
			errors: 1,
			bytes: 5006,
			fullBytes: 10_006,
			bytesSaved: 5000,
			conditional: 5,
			ratio304: 1,
		});
		expect(rows[2]).toMatchObject({
			urls: 11,
			changed: 2,
			notModified: 4,
			sameHash: 4,
			errors: 1,
			bytes: 6006,
			fullBytes: 10_006,
			bytesSaved: 4000,
			conditional: 5,
			ratio304: 0.8,
		});
		const starts = rows.map((row) => Date.parse(row.start as string));
		expect(starts).toEqual([...starts].sort((a, b) => a - b));
		for (const row of rows) expect(Date.parse(row.end as string) - Date.parse(row.start as string)).toBe(row.durationMs);
	});

	it('prints a table by default, and only the last N runs with --last', async () => {
		await threeSweeps();
		const table = await history();
		const lines = table.stdout.trimEnd().split('\n');
		expect(lines[0]).toMatch(
			/^START\s+TOOK\s+URLS\s+CHANGED\s+304S\s+SAME-HASH\s+SAME-CONTENT\s+ERRORS\s+DEFERRED\s+NOT-DUE\s+RECEIVED\s+FULL\s+SAVED\s+304%\s+BLOCKED$/,
		);
		expect(lines).toHaveLength(4);
		expect(lines[3]!.split(/\s{2,}/).slice(2)).toEqual(['11', '2', '4', '4', '0', '1', '0', '0', '6.0 KB', '10.0 KB', '4.0 KB', '80.0%', '-']);
		const last = await history('--last', '1', '--json');
		expect(ndjson(last.stdout)).toEqual([ndjson((await history('--json')).stdout)[2]]);
	});

	it('counts same-content apart from same-hash: in the summary line, the history and the metrics', async () => {
		// /counter: the same .price, a counter that changes every request; /fixed: the same bytes every time.
		let hits = 0;
		const rules = await startServer((req, res) => res.end(req.url === '/fixed' ? '<p class="price">$5</p>' : `<p class="price">$10</p><p>seen ${hits++}</p>`));
		try {
			const urls = [rules.url('/counter'), rules.url('/fixed')].join('\n');
			const sweepRules = () => runCli(['sweep', '--store', store.dir, '--select', '.price', '--ndjson', '--all'], urls);
			await sweepRules();
			const second = await sweepRules();
			expect(
				ndjson(second.stdout)
					.map((verdict) => verdict.reason)
					.sort(),
			).toEqual(['same-content', 'same-hash']);
			expect(second.stderr).toMatch(/^revisit: 2 URLs, 0 changed, 0 304s, 1 same-hash, 1 same-content, 0 errors, /m);
			const rows = ndjson((await history('--json')).stdout);
			expect(rows[1]).toMatchObject({ sameHash: 1, sameContent: 1 });
			const file = path.join(store.dir, 'revisit.prom');
			await history('--metrics', file);
			const text = await readFile(file, 'utf8');
			expect(text).toContain('\nrevisit_last_run_same_hash 1\n');
			expect(text).toContain('\nrevisit_last_run_same_content 1\n');
		} finally {
			await rules.close();
		}
	});

	it("restricts to one host's figures with --host (origin or hostname)", async () => {
		await threeSweeps();
		for (const host of [server.origin, '127.0.0.1']) {
			const rows = ndjson((await history('--host', host, '--json')).stdout);
			expect(rows.map(({ host, urls, changed, conditional, notModified, ratio304 }) => ({ host, urls, changed, conditional, notModified, ratio304 }))).toEqual([
				{ host: server.origin, urls: 11, changed: 10, conditional: 0, notModified: 0, ratio304: null },
				{ host: server.origin, urls: 11, changed: 0, conditional: 5, notModified: 5, ratio304: 1 },
				{ host: server.origin, urls: 11, changed: 2, conditional: 5, notModified: 4, ratio304: 0.8 },
			]);
		}
		const table = (await history('--host', '127.0.0.1')).stdout.trimEnd().split('\n');
		expect(table[0]).toMatch(/^START\s+TOOK\s+HOST\s+URLS\s+CHANGED\s+COND\s+304S\s+304%$/);
		expect(table[3]).toContain(`${server.origin}  11    2        5     4     80.0%`);
		const other = await history('--host', 'other.example');
		expect(other.status).toBe(1);
		expect(other.stderr).toContain('no run in');
	});

	it("writes the last run's figures as a parseable Prometheus textfile, atomically, printing nothing", async () => {
		await threeSweeps();
		const file = path.join(store.dir, 'revisit.prom');
		const run = await history('--metrics', file);
		expect(run).toMatchObject({ status: 0, stdout: '' });
		const text = await readFile(file, 'utf8');
		const samples = parseMetrics(text);
		const value = (name: string, labels: Record<string, string> = {}) =>
			samples.find((s) => s.name === name && JSON.stringify(s.labels) === JSON.stringify(labels))?.value;
		expect(value('revisit_last_run_changed')).toBe(2);
		expect(value('revisit_last_run_errors')).toBe(1);
		expect(value('revisit_last_run_urls')).toBe(11);
		expect(value('revisit_last_run_not_modified')).toBe(4);
		expect(value('revisit_last_run_bytes_saved')).toBe(4000);
		expect(value('revisit_last_run_bytes_received')).toBe(6006);
		expect(value('revisit_last_run_not_modified_ratio', { host: server.origin })).toBe(0.8);
		expect(value('revisit_last_run_host_changed', { host: server.origin })).toBe(2);
		const last = ndjson((await history('--json')).stdout)[2]!;
		expect(value('revisit_last_run_timestamp_seconds')).toBe(Date.parse(last.end as string) / 1000);
		for (const name of new Set(samples.map((s) => s.name))) {
			expect(name).toMatch(/^revisit_/);
			expect(text).toContain(`# HELP ${name} `);
			expect(text).toContain(`# TYPE ${name} gauge\n`);
		}
		expect((await readdir(store.dir)).filter((name) => name.includes('revisit.prom'))).toEqual(['revisit.prom']);

		await sweep();
		await history('--metrics', file);
		expect(parseMetrics(await readFile(file, 'utf8')).find((s) => s.name === 'revisit_last_run_changed')?.value).toBe(0);
	});

	it('draws changed URLs and the 304 ratio per run with --plot, in 80 columns', async () => {
		await threeSweeps();
		const { status, stdout } = await history('--plot');
		expect(status).toBe(0);
		expect(stdout).toContain('Changed URLs per run (3 runs; last 2, max 10)');
		expect(stdout).toContain('304 ratio per run (last 80.0%, min 80.0%)');
		expect(stdout).toMatch(/^ {2}10 ┤█/m);
		expect(stdout).toMatch(/^100% ┤/m);
		for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
	});

	it('writes the same charts as an SVG file with --svg', async () => {
		await threeSweeps();
		const file = path.join(store.dir, 'history.svg');
		expect(await history('--svg', file)).toMatchObject({ status: 0, stdout: '' });
		const svg = await readFile(file, 'utf8');
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
		expect(svg.trimEnd()).toMatch(/<\/svg>$/);
		expect(svg).toContain('Changed URLs per run (last 2, max 10)');
		expect(svg).toContain('304 ratio per run');
		expect(svg).toContain('>10</text>');
		expect(svg).toContain('>100%</text>');
		expect(svg.match(/<rect [^>]*class="bar"/g)).toHaveLength(3);
		expect(svg.match(/<circle /g)).toHaveLength(2);
		expect(svg).toContain('80.0% 304');
	});

	it('says so when no run is recorded, and rejects bad flags with exit 2 naming them', async () => {
		const missing = await history();
		expect(missing.status).toBe(2);
		expect(missing.stderr).toContain(`no store at ${store.dir}`);
		await (await LevelStore.open(store.dir)).close();
		const empty = await history();
		expect(empty.status).toBe(1);
		expect(empty.stderr).toContain('no sweep runs recorded');
		for (const [args, flag] of [
			[['--last', '0'], '--last'],
			[['--json', '--plot'], '--plot'],
			[['--metrics'], 'metrics'],
			[['--metrics', path.join(store.dir, 'missing', 'x.prom')], '--metrics'],
		] as const) {
			if (flag === '--metrics') await sweep();
			const run = await history(...args);
			expect(run.status, args.join(' ')).toBe(2);
			expect(run.stderr).toContain(flag);
		}
	});

	it('teaches with --help', async () => {
		const { stdout } = await runCli(['history', '--help']);
		expect(stdout).toContain('--metrics');
		expect(stdout).toContain('Examples:');
		expect(stdout).toContain('revisit history --plot');
		expect(stdout).toContain('node_exporter');
	});
});
