import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// curl's -H and grep's -e take one value and repeat: these flags used to take every word
// after them, the URLs too, and the URL then failed as a selector (exit 2).
describe('repeatable flags take one value each time', () => {
	let server: TestServer;
	let work: { dir: string; cleanup(): Promise<void> };
	let served = 0;
	beforeAll(async () => {
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			served++;
			// Two blocks that differ on every request: "recently viewed" and an ad.
			const ad = req.url === '/two' ? `<div class="ad">ad ${served}</div>` : '';
			res
				.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
				.end(
					`<html><body><h1>Lamp</h1><p class="price">$24.50</p><p class="stock">In stock</p><div class="recent">viewed ${served} times</div>${ad}</body>` +
						`</html>`,
				);
		});
	});
	afterAll(() => server.close());
	beforeEach(async () => {
		work = await tempDir('revisit-one-value-');
	});
	afterEach(() => work.cleanup());
	const store = () => path.join(work.dir, 'store');
	const sweep = (args: string[]) => runCli(['sweep', '--store', store(), '--ndjson', '--all', '-q', '--audit', '0', ...args]);
	const reasons = async (args: string[]) => {
		const run = await sweep(args);
		expect(run.stderr).toBe('');
		expect(run.status).toBe(0);
		return ndjson(run.stdout).map((verdict) => [verdict.url, verdict.reason]);
	};

	it('revisit sweep --exclude .recent URL: the URL is checked, .recent left out', async () => {
		const url = server.url('/item');
		expect(await reasons(['--exclude', '.recent', url])).toEqual([[url, 'new']]);
		expect(await reasons(['--exclude', '.recent', url])).toEqual([[url, 'same-content']]);
		expect(server.seen('/item')).toHaveLength(2);
	});

	it('given again, the values add up: --exclude .recent --exclude .ad, as --exclude=… too', async () => {
		const url = server.url('/two');
		await reasons(['--exclude', '.recent', '--exclude', '.ad', url]);
		expect(await reasons(['--exclude', '.recent', '--exclude', '.ad', url])).toEqual([[url, 'same-content']]);
		expect(await reasons(['--exclude=.recent', '--exclude=.ad', url])).toEqual([[url, 'same-content']]);
		// The second one counts: without it the ad is a change.
		expect(await reasons(['--exclude', '.recent', url])).toEqual([[url, 'rebaseline']]);
		expect(await reasons(['--exclude', '.recent', url])).toEqual([[url, 'new-body']]);
	});

	it.each([
		['--select', 'h1'],
		['--exclude', '.recent'],
		['--ignore', 'viewed \\d+ times'],
		['--price', '.price'],
		['--availability', '.stock'],
		['--accept-churn', 'all'],
	])('sweep %s %s URL checks the URL', async (flag, value) => {
		const url = server.url('/item');
		expect(await reasons([flag, value, url])).toEqual([[url, 'new']]);
	});

	it.each([
		['fetch', ['--out', 'pages']],
		['crawl', ['--out', 'pages']],
		['watch', ['--now', '2030-01-01T00:00:00Z', '--time-scale', '3600', '--until', '1h']],
	])('%s --select h1 --exclude .recent URL checks the URL', async (command, args) => {
		const url = server.url('/item');
		const run = await runCli([
			command,
			'--store',
			store(),
			'-q',
			...args.map((arg) => (arg === 'pages' ? path.join(work.dir, arg) : arg)),
			'--select',
			'h1',
			'--exclude',
			'.recent',
			url,
		]);
		// watch says on stderr what its rate means: no error among it.
		expect(run.stderr).not.toMatch(/selector|not a URL|usage/i);
		expect(run.status).toBe(0);
		expect(run.stdout).toBe(`${url}\n`);
	});

	it('rules test --exclude .recent --exclude h1 URL: both selectors apply to the page', async () => {
		const run = await runCli(['rules', 'test', '--exclude', '.recent', '--exclude', 'h1', server.url('/item'), '--store', store()]);
		expect(run.status).toBe(0);
		expect(run.stdout).not.toContain('Lamp');
		expect(run.stdout).not.toContain('viewed');
		expect(run.stdout).toContain('$24.50');
		expect(run.stderr).toContain('excluded 2 elements (.recent, h1)');
	});

	it('watch --input FILE URL: the file and the URL are both watched', async () => {
		const list = path.join(work.dir, 'urls.txt');
		await writeFile(list, `${server.url('/item')}\n`);
		const run = await runCli([
			'watch',
			'--store',
			store(),
			'-q',
			'--now',
			'2030-01-01T00:00:00Z',
			'--time-scale',
			'3600',
			'--until',
			'1h',
			'--input',
			list,
			server.url('/two'),
		]);
		expect(run.status).toBe(0);
		expect(run.stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/item'), server.url('/two')]);
	});

	it('run --set KEY=VALUE PIPELINE: the pipeline file is not taken as a second --set', async () => {
		const file = path.join(work.dir, 'p.json');
		await writeFile(file, JSON.stringify({ store: store(), source: { type: 'urls', urls: [server.url('/item')] }, sinks: [{ type: 'stdout' }] }));
		const run = await runCli(['run', '--set', 'concurrency=2', '--set', 'perHost=1', file, '-q']);
		expect(run.stderr).toBe('');
		expect(run.status).toBe(0);
		expect(run.stdout).toBe(`${server.url('/item')}\n`);
	});

	it.each([
		[
			['sweep', '--exclude', '.recent', '.ad', 'URL'],
			'--exclude takes one value each time: ".ad" after it is not a URL; for two, give the flag again: --exclude .recent --exclude .ad',
		],
		[
			['sweep', '--select=.price .was', 'h1', 'URL'],
			'--select takes one value each time: "h1" after it is not a URL; for two, give the flag again: --select \'.price .was\' --select h1',
		],
		[
			['rules', 'test', '--ignore', 'a+', 'b+', 'URL'],
			'--ignore takes one value each time: "b+" after it is not a URL; for two, give the flag again: --ignore a+ --ignore b+',
		],
	])('%j, written as when they took every word: exit 2, the flag given twice as the fix, nothing sent', async (args, message) => {
		const before = server.requests.length;
		const run = await runCli([...args.map((arg) => (arg === 'URL' ? server.url('/item') : arg)), '--store', store()]);
		expect(run.status).toBe(2);
		expect(run.stderr).toBe(`revisit: ${message}\n`);
		expect(server.requests.length).toBe(before);
	});
});
