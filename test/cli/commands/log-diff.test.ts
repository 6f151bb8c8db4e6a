import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { visibleText } from '../../../src/domain/content/visible-text.js';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../../src/cli/main.js';
import { ndjson, runCli, spawnCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const run = promisify(execFile);

// The page as it stands after each edit: a price cut, then a longer delivery and a new line.
const PAGES = [
	'<html><head><title>Kettle</title></head><body><h1>Kettle</h1><p>Price 24.50 EUR</p><p>Ships in 2 days</p></body></html>',
	'<html><head><title>Kettle</title></head><body><h1>Kettle</h1><p>Price 21.00 EUR</p><p>Ships in 2 days</p></body></html>',
	'<html><head><title>Kettle</title></head><body><h1>Kettle</h1><p>Price 21.00 EUR</p><p>Ships in 5 working days</p><p>Last few left</p></body></html>',
];

describe('revisit log and revisit diff', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let edit = 0;
	beforeEach(async () => {
		edit = 0;
		server = await startServer((req, res) => {
			res.setHeader('content-type', 'text/html');
			res.end(req.url === '/item' ? PAGES[edit] : '<p>other</p>');
		});
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});
	const sweep = async (url: string) => expect((await runCli(['sweep', '--store', store.dir, '-q', '--robots', 'ignore', '--audit', '0', url])).status).toBe(0);
	const cli = (...args: string[]) => runCli([...args, '--store', store.dir]);

	/** Three versions of /item: first sight, the price cut, the delivery; then a sweep that finds it unchanged. */
	async function threeVersions(): Promise<string> {
		const url = server.url('/item');
		await sweep(url);
		edit = 1;
		await sweep(url);
		edit = 2;
		await sweep(url);
		await sweep(url);
		return url;
	}

	it('log lists the versions newest first, as a table and as JSON lines', async () => {
		const url = await threeVersions();
		const table = await cli('log', url);
		expect(table).toMatchObject({ status: 0, stderr: '' });
		const lines = table.stdout.trimEnd().split('\n');
		expect(lines[0]).toMatch(/^VERSION +FIRST SEEN +LAST CONFIRMED +REASON +WORDS +TEXT +VALIDATORS$/);
		expect(lines.slice(1).map((line) => line.split(/ {2,}/)[0])).toEqual(['3 latest', '2', '1']);
		expect(lines[3]).toMatch(/^1 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +new /);

		const rows = ndjson((await cli('log', url, '--json')).stdout);
		expect(rows.map((row) => [row.n, row.latest])).toEqual([
			[3, true],
			[2, undefined],
			[1, undefined],
		]);
		expect(rows[1]).toMatchObject({ url, reason: 'new-body', added: 1, removed: 1 });
		// The fourth sweep found version 3 again: confirmed later than first seen.
		expect(Date.parse(rows[0]!.lastConfirmed as string)).toBeGreaterThan(Date.parse(rows[0]!.firstSeen as string));
		expect(ndjson((await cli('log', url, '--json', '--last', '1')).stdout).map((row) => row.n)).toEqual([3]);
	});

	it('diff shows the last change word by word by default, and exits 1 as diff(1) does when they differ', async () => {
		const url = await threeVersions();
		const last = await cli('diff', url);
		expect(last.stderr).toBe('');
		expect(last.status).toBe(1);
		const [header, blank, ...body] = last.stdout.trimEnd().split('\n');
		expect(header).toMatch(new RegExp(`^${url.replace(/[.]/g, '\\.')}: version 2 \\(.+Z\\) → version 3 \\(.+Z\\), words \\+\\d+ −\\d+$`));
		expect(blank).toBe('');
		expect(body.join('\n')).toContain('Ships in [-2-]{+5+} {+working +}days');
		expect(body.join('\n')).toContain('days{+\nLast few left+}');
		expect(last.stdout).not.toContain('\x1b[');

		const since = await cli('diff', url, 'first');
		expect(since.status).toBe(1);
		expect(since.stdout).toContain('version 1 (');
		expect(since.stdout).toContain('Price [-24.50-]{+21.00+} EUR');

		const coloured = await cli('diff', url, '~2', '~1', '--color', 'always');
		expect(coloured.stdout).toContain('Price \x1b[31m24.50\x1b[m\x1b[32m21.00\x1b[m EUR');

		// On a terminal, colours unless NO_COLOR is set.
		const onTerminal = async (env: NodeJS.ProcessEnv) => {
			const stdout = Object.assign(new PassThrough(), { isTTY: true });
			const chunks: Buffer[] = [];
			stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
			const status = await main(['diff', url, '~2', '~1', '--store', store.dir], {
				stdin: Readable.from([]),
				stdout,
				stderr: new PassThrough(),
				env,
				interrupted: new Promise(() => {}),
			});
			return { status, stdout: Buffer.concat(chunks).toString() };
		};
		expect(await onTerminal({})).toMatchObject({ status: 1, stdout: expect.stringContaining('\x1b[31m24.50\x1b[m') });
		expect((await onTerminal({ NO_COLOR: '1' })).stdout).toContain('Price [-24.50-]{+21.00+} EUR');
	});

	it('diff of a version with itself, or of two dates between the same changes, prints nothing and exits 0', async () => {
		const url = await threeVersions();
		expect(await cli('diff', url, '2', '2')).toEqual({ status: 0, stdout: '', stderr: '' });
		const rows = ndjson((await cli('log', url, '--json')).stdout);
		// The time version 2 was first seen, as log --json writes it, names version 2; so does ~1.
		expect(await cli('diff', url, rows[1]!.firstSeen as string, '~1')).toEqual({ status: 0, stdout: '', stderr: '' });
		const json = await cli('diff', url, 'latest', '3', '--json');
		expect(json.status).toBe(0);
		expect(JSON.parse(json.stdout)).toMatchObject({ url, same: true, from: { n: 3, latest: true }, to: { n: 3 }, added: 0, removed: 0, hunks: [] });
	});

	it('diff --json gives the two versions and the hunks; --unified a patch that patch(1) applies to the first text to give the latest', async () => {
		const url = await threeVersions();
		const json = await cli('diff', url, '1', '2', '--json');
		expect(json.status).toBe(1);
		expect(JSON.parse(json.stdout)).toMatchObject({ url, same: false, from: { n: 1, reason: 'new' }, to: { n: 2, reason: 'new-body' }, added: 1, removed: 1 });
		expect(JSON.parse(json.stdout).hunks.flat()).toContainEqual([-1, '24.50']);

		const unified = await cli('diff', url, 'first', 'latest', '--unified');
		expect(unified.status).toBe(1);
		expect(
			unified.stdout
				.split('\n')
				.slice(0, 2)
				.map((line) => line.replace(/\t.*/, '')),
		).toEqual([`--- ${url} (version 1)`, `+++ ${url} (version 3)`]);
		const work = await tempDir();
		try {
			const file = path.join(work.dir, 'item.txt');
			await writeFile(file, visibleText(PAGES[0]!));
			await writeFile(path.join(work.dir, 'item.patch'), unified.stdout);
			await run('patch', ['--quiet', '--batch', file, path.join(work.dir, 'item.patch')]);
			expect(await readFile(file, 'utf8')).toBe(visibleText(PAGES[2]!));
		} finally {
			await work.cleanup();
		}
	});

	it('refuses what names no version with exit 2 and the argument named; an unknown URL is 1 for log and 2 for diff', async () => {
		const url = await threeVersions();
		const refused = async (args: string[], message: string | RegExp, status = 2) => {
			const result = await cli(...args);
			expect({ status: result.status, stdout: result.stdout }, args.join(' ')).toEqual({ status, stdout: '' });
			expect(result.stderr.split('\n')[0]).toMatch(message);
		};
		await refused(['diff', url, 'soon'], /^revisit: A: cannot read 'soon' as a version: give a number from revisit log, first, latest/);
		await refused(['diff', url, '1', '2026-13-01'], /^revisit: B: '2026-13-01' is not a date and time that exists$/);
		await refused(['diff', url, '9'], 'revisit: A: version 9 does not exist: versions 1 to 3 are kept');
		await refused(['diff', url, '~3'], 'revisit: A: ~3 goes back past the oldest version kept: versions 1 to 3 are kept (~2 is the oldest)');
		await refused(['diff', url, '2001-01-01'], /^revisit: A: the page had not been seen yet at 2001-01-01 23:59:59Z: it was first seen \d{4}/);
		await refused(['diff', url, '1', '2', '--json', '--unified'], /^revisit: --json and --unified cannot be combined/);
		await refused(['diff', 'example.org/item'], 'revisit: URL: "example.org/item": not an absolute URL');
		await refused(['diff', `${url}/`], `revisit: ${url}/ is not in ${store.dir}; did you mean ${url}?`);
		await refused(['log', `${url}/`], `revisit: ${url}/ is not in ${store.dir}; did you mean ${url}?`, 1);
		await refused(['log', server.url('/nowhere')], `revisit: ${server.url('/nowhere')} is not in ${store.dir}`, 1);
	});

	it("log shows a product page's offer as it moved, and diff the offer's words", async () => {
		const offer = (price: string, availability: string) =>
			`<html><head><title>Kettle</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle",` +
			`"offers":{"@type":"Offer","price":"${price}","priceCurrency":"EUR","availability":"https://schema.org/${availability}"}}</script></head>` +
			`<body><h1>Kettle</h1></body></html>`;
		let page = offer('24.50', 'InStock');
		await server.close();
		server = await startServer((_req, res) => {
			res.setHeader('content-type', 'text/html');
			res.end(page);
		});
		const url = server.url('/kettle');
		const sweepProduct = async () =>
			expect((await runCli(['sweep', '--store', store.dir, '-q', '--robots', 'ignore', '--audit', '0', '--product', url])).status).toBe(0);
		await sweepProduct();
		page = offer('21.00', 'InStock');
		await sweepProduct();
		page = offer('21.00', 'OutOfStock');
		await sweepProduct();
		const table = (await cli('log', url)).stdout.split('\n');
		expect(table[0]).toMatch(/ OFFER +VALIDATORS$/);
		// VERSION, REASON and OFFER of each row.
		const columns = (line: string) => line.split(/ {2,}/).filter((_, i) => i === 0 || i === 3 || i === 6);
		expect(table.slice(1, 4).map(columns)).toEqual([
			['3 latest', 'availability', 'price 21 EUR, availability InStock → OutOfStock'],
			['2', 'price', 'price 24.5 EUR → 21 EUR, availability InStock'],
			['1', 'new', 'price 24.5 EUR, availability InStock'],
		]);
		const diff = await cli('diff', url, 'first');
		expect(diff.status).toBe(1);
		expect(diff.stdout).toContain('price: [-24.5-]{+21+} EUR');
		expect(diff.stdout).toContain('availability: [-InStock-]{+OutOfStock+}');
	});

	it('diff with one version only says there is nothing to compare it with yet', async () => {
		const url = server.url('/item');
		await sweep(url);
		const result = await cli('diff', url);
		expect(result).toMatchObject({ status: 2, stdout: '' });
		expect(result.stderr).toMatch(/^revisit: the page has one version only \(version 1, first seen .+Z\): nothing to compare it with yet\n$/);
		expect((await cli('diff', url, 'first', 'latest')).status).toBe(0);
	});

	it('run from bin/revisit.js (their own bundle) as from the full CLI: the same help, the same errors', async () => {
		for (const args of [['log', '--help'], ['diff', '--help'], ['diff', 'https://example.org/', '--colour', 'never'], ['log']]) {
			const bundled = await spawnCli(args, '').done;
			const full = await runCli(args);
			expect({ status: bundled.status, stdout: bundled.stdout, stderr: bundled.stderr }, args.join(' ')).toEqual(full);
		}
		expect((await spawnCli(['diff', '--help'], '').done).stdout).toMatch(
			/^revisit diff <url> \[a\] \[b\]\n[\s\S]*Examples:\n {2}revisit diff https:\/\/example.org\/news {2}/,
		);
	});

	it('log and diff read the store through a running watch', async () => {
		const url = await threeVersions();
		const before = { log: await cli('log', url, '--json'), diff: await cli('diff', url, 'first') };
		// The watch checks another page, so that the versions of /item stay as they are.
		const watch = spawnCli(
			['watch', '--store', store.dir, '--rate', '100/s', '--robots', 'ignore', '--audit', '0', '--ndjson', '-q'],
			`${server.url('/other')}\n`,
		);
		try {
			const deadline = Date.now() + 20_000;
			while (ndjson(watch.stdout()).length === 0) {
				if (Date.now() > deadline) throw new Error('the watch never checked /other');
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			const log = await spawnCli(['log', url, '--json', '--store', store.dir], '').done;
			expect({ status: log.status, stderr: log.stderr, stdout: log.stdout }).toEqual({ status: 0, stderr: '', stdout: before.log.stdout });
			const diff = await spawnCli(['diff', url, 'first', '--store', store.dir], '').done;
			expect({ status: diff.status, stderr: diff.stderr, stdout: diff.stdout }).toEqual({ status: 1, stderr: '', stdout: before.diff.stdout });
		} finally {
			watch.child.kill('SIGTERM');
			await watch.done;
		}
	});
});
