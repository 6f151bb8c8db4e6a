import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import { ndjson, runCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

describe('revisit sweep (command line)', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		server = await startServer((req, res) => res.end(`page ${req.url}`));
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});
	const sweep = (args: string[], stdin = '') => runCli(['sweep', '--store', store.dir, ...args], stdin);

	it('takes --host-rate, and --rate, its name before, saying once on stderr that it is --host-rate now', async () => {
		const old = await sweep(['-q', '--rate', '5', server.url('/a'), server.url('/b')]);
		expect(old.status).toBe(0);
		expect(old.stderr).toBe('revisit: --rate is now --host-rate on sweep (requests per second per origin); --rate still works\n');
		expect(old.stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/a'), server.url('/b')]);
		const now = await sweep(['-q', '--host-rate', '5', server.url('/c')]);
		expect(now).toMatchObject({ status: 0, stderr: '', stdout: `${server.url('/c')}\n` });
		const bad = await sweep(['-q', '--host-rate', '0', server.url('/c')]);
		expect(bad.status).toBe(2);
		expect(bad.stderr).toContain('--host-rate must be a number > 0 (got 0)');
		const help = await runCli(['sweep', '--help']);
		expect(help.stdout).toMatch(/--host-rate +Requests per second per origin \[default: unlimited\]/);
		expect(help.stdout).not.toMatch(/--rate\b/);
	});

	it('names each bad line on stderr, skips it, goes on, and exits 1', async () => {
		const input = [server.url('/a'), 'not a url', 'ftp://example.org/x', '', '# comment', server.url('/b')].join('\n');
		const { status, stdout, stderr } = await sweep(['-q'], input);
		expect(status).toBe(1);
		expect(stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/a'), server.url('/b')]);
		expect(stderr).toContain('line 2: not an absolute URL: "not a url"');
		expect(stderr).toContain('line 3: scheme ftp: is not http or https');
		expect(stderr.trim().split('\n')).toHaveLength(2);
	});

	it('probes a URL given twice (in any spelling) once, and prints it in normal form', async () => {
		const host = server.origin.replace('127.0.0.1', '127.0.0.1'.toUpperCase());
		const input = [server.url('/a'), `${host}/a#frag`, server.url('/a')].join('\n').replace('http:', 'HTTP:');
		const { status, stdout } = await sweep(['-q'], input);
		expect(status).toBe(0);
		expect(stdout).toBe(`${server.url('/a')}\n`);
		expect(server.seen('/a')).toHaveLength(1);
	});

	it('keeps stdout for data: the summary goes to stderr, and unchanged URLs print nothing', async () => {
		await sweep(['-q'], server.url('/a'));
		const { stdout, stderr } = await sweep([], server.url('/a'));
		expect(stdout).toBe('');
		expect(stderr).toMatch(/^revisit: 1 URL, 0 changed, 0 304s, 1 same-hash, 0 errors, .* received \(0 B saved\), [\d.]+s\n$/);
	});

	it('takes URLs as arguments, with - splicing in stdin', async () => {
		const { stdout } = await sweep(['-q', server.url('/a'), '-'], `${server.url('/b')}\n`);
		expect(stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/a'), server.url('/b')]);
	});

	it('treats an empty stdin as an empty, successful run', async () => {
		expect(await sweep(['-q'], '')).toMatchObject({ status: 0, stdout: '' });
	});

	it('prints NDJSON verdicts with --ndjson, unchanged ones only with --all', async () => {
		await sweep(['-q'], server.url('/a'));
		expect((await sweep(['-q', '--ndjson'], server.url('/a'))).stdout).toBe('');
		const [verdict] = ndjson((await sweep(['-q', '--ndjson', '--all'], server.url('/a'))).stdout);
		expect(Object.keys(verdict!)).toEqual(['url', 'changed', 'reason', 'status', 'hash', 'verifiedAt', 'bytes', 'ms', 'rate']);
		expect(verdict).toMatchObject({ url: server.url('/a'), changed: false, reason: 'same-hash', status: 200 });
	});

	it('exits 2 naming the store when another revisit holds it, and probes nothing', async () => {
		const holder = await LevelStore.open(store.dir);
		try {
			const { status, stderr, stdout } = await sweep([], server.url('/a'));
			expect(status).toBe(2);
			expect(stderr).toBe(`revisit: store ${store.dir} is locked: another revisit is using it\n`);
			expect(stdout).toBe('');
			expect(server.requests).toHaveLength(0);
		} finally {
			await holder.close();
		}
	});

	it.each([
		[['--concurrency', '0'], '--concurrency must be an integer >= 1 (got 0)'],
		[['--per-host', 'many'], '--per-host must be an integer >= 1 (got "many")'],
		[['--timeout', '-1'], '--timeout must be a number > 0 (got -1)'],
		[['--bogus'], 'unknown flag --bogus'],
	])('exits 2 on a bad flag %j, saying which', async (args, message) => {
		const { status, stderr } = await sweep(args, server.url('/a'));
		expect(status).toBe(2);
		expect(stderr).toContain(message);
		expect(server.requests).toHaveLength(0);
	});

	it('exits 2 when no command is given, and 0 with usage on --help', async () => {
		expect((await runCli([])).status).toBe(2);
		const help = await runCli(['sweep', '--help']);
		expect(help.status).toBe(0);
		expect(help.stdout).toContain('--per-host');
		expect(help.stdout).toContain('revisit sweep < urls.txt > changed.txt');
	});
});
