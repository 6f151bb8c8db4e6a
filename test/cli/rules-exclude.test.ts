import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// A user picks the element that rotates (a timestamp, the "was" price) and leaves it out by selector.
describe('--exclude and "exclude": elements left out by selector', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	let served = 0;
	let title = 'Lamp';
	let price = '24.50';
	beforeAll(async () => {
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			served++;
			const was = `<span class="was">was $${30 + served}.00</span>`;
			const body =
				req.url === '/price'
					? `<h1>Lamp</h1><p class="price">$${price} ${was}</p>`
					: `<h1>${title}</h1><p>Generated at <span class="ts">${new Date(Date.UTC(2024, 0, 1, 12, 0, served)).toISOString()}</span></p>`;
			res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><body>${body}</body></html>`);
		});
	});
	afterAll(() => server.close());
	beforeEach(async () => {
		title = 'Lamp';
		price = '24.50';
		dir = await tempDir('revisit-exclude-');
	});
	afterEach(() => dir.cleanup());
	const sweep = (args: string[], url: string) =>
		runCli(['sweep', '--store', path.join(dir.dir, 'store'), '--ndjson', '--all', '-q', '--audit', '0', ...args], `${url}\n`);
	const reasons = async (args: string[], url: string) => ndjson((await sweep(args, url)).stdout).map((verdict) => verdict.reason);

	it('--exclude .ts: the rotating timestamp is no change; the heading still is', async () => {
		const url = server.url('/stamped');
		await sweep([], url);
		expect(await reasons([], url)).toEqual(['new-body']);
		await sweep(['--exclude', '.ts'], url);
		expect(await reasons(['--exclude', '.ts'], url)).toEqual(['same-content']);
		title = 'Desk lamp';
		expect(await reasons(['--exclude', '.ts'], url)).toEqual(['new-body']);
	});

	it('--select .price --exclude ".price .was": only the current price counts', async () => {
		const url = server.url('/price');
		await sweep(['--select', '.price'], url);
		expect(await reasons(['--select', '.price'], url)).toEqual(['new-body']);
		const rule = ['--select', '.price', '--exclude', '.price .was'];
		// The rule changed (exclude added): the stored hash is taken as the baseline, not a change.
		expect(await reasons(rule, url)).toEqual(['rebaseline']);
		expect(await reasons(rule, url)).toEqual(['same-content']);
		price = '21.00';
		expect(await reasons(rule, url)).toEqual(['new-body']);
	});

	it("in a pipeline file's rules, as in a --rules file", async () => {
		const file = path.join(dir.dir, 'stamped.json');
		await writeFile(
			file,
			JSON.stringify({
				store: path.join(dir.dir, 'store'),
				source: { type: 'urls', urls: [server.url('/stamped')] },
				stages: [{ use: 'compare', rules: [{ exclude: ['.ts'] }] }],
				sinks: [{ type: 'stdout' }],
			}),
		);
		expect((await runCli(['run', file, '-q'])).stdout).toBe(`${server.url('/stamped')}\n`);
		expect((await runCli(['run', file, '-q'])).stdout).toBe('');
		const rules = path.join(dir.dir, 'rules.json');
		await writeFile(rules, JSON.stringify([{ select: ['.price'], exclude: ['.price .was'] }]));
		await sweep(['--rules', rules], server.url('/price'));
		expect(await reasons(['--rules', rules], server.url('/price'))).toEqual(['same-content']);
	});

	it('revisit rules test lists what was excluded: how many elements, and each in short', async () => {
		const shown = await runCli([
			'rules',
			'test',
			server.url('/price'),
			'--select',
			'.price',
			'--exclude',
			'.price .was',
			'--exclude',
			'h1',
			'--store',
			path.join(dir.dir, 'none'),
		]);
		expect(shown.status).toBe(0);
		expect(shown.stdout).toBe('<p class="price">$24.50 </p>\n');
		expect(shown.stderr).toMatch(/revisit: excluded 2 elements \(\.price \.was, h1\):\n {2}h1 "Lamp"\n {2}span\.was "was \$\d+\.00"\n/);
		const none = await runCli(['rules', 'test', server.url('/price'), '--exclude', '.ts', '--store', path.join(dir.dir, 'none')]);
		expect(none.stderr).toContain('the exclude selectors matched nothing');
	});

	it('a bad selector on the command line names the flag and the selector, whole, and nothing is sent', async () => {
		const before = server.requests.length;
		const bad = await sweep(['--select', '.price', '--exclude', '.price['], server.url('/price'));
		expect(bad.status).toBe(2);
		expect(bad.stderr).toBe('revisit: --exclude ".price[" is not a CSS selector: Expected name, found the end of the selector\n');
		const tested = await runCli(['rules', 'test', server.url('/price'), '--select', 'p:nope']);
		expect(tested.stderr).toBe('revisit: --select "p:nope" is not a CSS selector: Unknown pseudo-class :nope\n');
		expect(server.requests.length).toBe(before);
	});

	it("a pipeline file's bad selector is reported with its other problems, at its line and column", async () => {
		const file = path.join(dir.dir, 'bad.json');
		await writeFile(
			file,
			`{\n  "source": { "type": "urls", "urls": ["${server.url('/price')}"] },\n  "stages": [\n    { "use": "probe", "concurrency": 0 },\n    { "use": ` +
				`"compare", "rules": [{ "exclude": [".was["] }] }\n  ],\n  "sinks": [{ "type": "stdout" }]\n}\n`,
		);
		const before = server.requests.length;
		const run = await runCli(['run', file]);
		expect(run.status).toBe(2);
		expect(run.stderr).toBe(
			`${file}:4:38: /stages/0/concurrency: must be integer >= 1 (got 0)\n` +
				`${file}:5:49: /stages/1/rules/0/exclude/0: must be a CSS selector (got ".was[": Expected name, found the end of the selector)\n` +
				`revisit: ${file} is not a valid pipeline (2 problems); nothing was run\n`,
		);
		expect(server.requests.length).toBe(before);
		const rules = path.join(dir.dir, 'rules.json');
		await writeFile(rules, '[\n  { "exclude": ["a:nope"] }\n]\n');
		const swept = await sweep(['--rules', rules], server.url('/price'));
		expect(swept.status).toBe(2);
		expect(swept.stderr).toContain(`${rules}:2:17: /0/exclude/0: must be a CSS selector (got "a:nope": Unknown pseudo-class :nope)`);
		expect(swept.stderr).not.toContain('--help');
	});
});
