import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const START: Record<string, string> = {
	'/a': 'The lamp is made of brass and glass, and it stands on any desk.',
	'/b': 'A chair of oak with four legs and a straight back for long evenings.',
	'/c': 'Shelves for books, records and plants; they fit any wall.',
	'/d': 'A rug woven by hand from wool, in red and blue.',
	'/e': 'A clock that ticks quietly and never needs winding.',
};

// Pages change by a few words or many; `--when` reports exactly those that meet it, and the rest become the baseline silently.
describe('--when: a change is reported only when the condition holds', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	let pages: Record<string, string>;
	beforeAll(async () => {
		server = await startServer((req, res) => {
			const text = pages[req.url ?? ''];
			if (text === undefined) return void res.writeHead(404).end();
			res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><body><h1>Shop</h1><p>${text}</p></body></html>`);
		});
	});
	afterAll(() => server.close());
	beforeEach(async () => {
		pages = { ...START };
		dir = await tempDir('revisit-when-');
	});
	afterEach(() => dir.cleanup());
	const input = () =>
		Object.keys(START)
			.map((page) => server.url(page))
			.join('\n') + '\n';
	const sweep = (args: string[]) => runCli(['sweep', '--store', path.join(dir.dir, 'store'), '--audit', '0', ...args], input());
	const urls = (stdout: string) =>
		stdout
			.split('\n')
			.filter((line) => line !== '')
			.map((url) => new URL(url).pathname)
			.sort();

	it('changed_words > 3: only the pages with more than three words changed; the others are not reported later either, and the store holds them', async () => {
		const first = await sweep(['--when', 'changed_words > 3']);
		// A first sight has no word diff: changed_words is missing, the condition does not hold, and the page is the baseline.
		expect(first.status).toBe(0);
		expect(first.stdout).toBe('');
		expect(first.stderr).toContain('5 unmet (--when)');
		pages['/a'] = pages['/a']!.replace('brass', 'copper');
		pages['/b'] = 'A stool of pine with three legs and no back at all, for short evenings.';
		pages['/c'] = 'Shelves for books; they fit any wall.';
		pages['/e'] = pages['/e']!.replace('quietly', 'loudly');
		const second = await sweep(['--when', 'changed_words > 3']);
		expect(urls(second.stdout)).toEqual(['/b']);
		expect(second.stderr).toMatch(/1 changed, .*3 unmet \(--when\)/);
		// Without the condition: the unmet changes were committed, so nothing is left to report.
		const third = await sweep(['--ndjson', '--all']);
		expect(ndjson(third.stdout).map((verdict) => verdict.reason)).toEqual(['same-hash', 'same-hash', 'same-hash', 'same-hash', 'same-hash']);
		pages['/c'] = 'Shelves for books and maps; they fit any wall.';
		expect(urls((await sweep(['--when', 'changed_words > 3'])).stdout)).toEqual([]);
		pages['/c'] = 'Shelves for cups and maps only.';
		expect(urls((await sweep(['--when', 'changed_words > 3'])).stdout)).toEqual(['/c']);
	});

	it('contains(text, …): first sights and changes whose text holds the words; unmet verdicts say so', async () => {
		pages['/d'] = 'A rug woven by hand, on sale this week.';
		const first = await sweep(['--when', 'contains(text, "On Sale")', '--ndjson', '--all']);
		const verdicts = ndjson(first.stdout).map((verdict) => [new URL(String(verdict.url)).pathname, verdict.changed, verdict.reason]);
		expect(verdicts.sort()).toEqual([
			['/a', false, 'unmet'],
			['/b', false, 'unmet'],
			['/c', false, 'unmet'],
			['/d', true, 'new'],
			['/e', false, 'unmet'],
		]);
		pages['/a'] = `${pages['/a']} Now on sale.`;
		pages['/b'] = pages['/b']!.replace('oak', 'ash');
		expect(urls((await sweep(['--when', 'contains(text, "on sale")'])).stdout)).toEqual(['/a']);
		expect(urls((await sweep([])).stdout)).toEqual([]);
	});

	it('reads the text for a condition on it with --keep-text off (and stores none)', async () => {
		pages['/d'] = 'A rug woven by hand, on sale this week.';
		expect(urls((await sweep(['--keep-text', 'off', '--when', 'contains(text, "on sale")'])).stdout)).toEqual(['/d']);
	});

	it('keeps the condition in the run history', async () => {
		await sweep(['--when', 'changed_words > 3', '-q']);
		const history = await runCli(['history', '--store', path.join(dir.dir, 'store'), '--json']);
		expect(history.status).toBe(0);
		expect(ndjson(history.stdout).at(-1)).toMatchObject({ when: 'changed_words > 3', unmet: 5 });
	});

	it('a pipeline file\'s "when" in the compare stage does the same', async () => {
		const file = path.join(dir.dir, 'pipeline.json');
		const pipeline = (when: string) => ({
			store: path.join(dir.dir, 'store'),
			source: { type: 'urls', urls: Object.keys(START).map((page) => server.url(page)) },
			stages: [
				{ use: 'probe', audit: 0 },
				{ use: 'compare', when },
			],
			sinks: [{ type: 'stdout' }],
		});
		await writeFile(file, JSON.stringify(pipeline('changed_words > 3')));
		expect((await runCli(['run', file, '-q'])).stdout).toBe('');
		pages['/a'] = 'Nothing like the lamp that was here before, at all.';
		pages['/e'] = pages['/e']!.replace('quietly', 'loudly');
		expect(urls((await runCli(['run', file, '-q'])).stdout)).toEqual(['/a']);
		await writeFile(file, JSON.stringify(pipeline('price <<< 40')));
		const bad = await runCli(['run', file, '-q']);
		expect(bad.status).toBe(2);
		expect(bad.stderr).toContain('/stages/1/when: must be a condition such as changed_words > 3 or price < 40 (got "price <<< 40": syntax error at column 8)');
	});

	it('refuses a bad condition before anything is sent', async () => {
		const before = server.requests.length;
		const bad = await sweep(['--when', 'changed_words >> 3']);
		expect(bad.status).toBe(2);
		expect(bad.stderr).toContain('--when: syntax error at column 16: changed_words >> 3');
		expect(server.requests.length).toBe(before);
	});

	it.each([
		[
			"availability == 'InStock'",
			`--when: unknown name 'InStock' at column 17 ('single quotes' make a name: write text in double quotes, "InStock"): availability == 'InStock'`,
		],
		['in_stock || price < 40', '--when: syntax error at column 10 (write `or` for `||`: the words are and, or, not): in_stock || price < 40'],
		['instock and price < 40', '--when: unknown name `instock` at column 1 (did you mean `in_stock`?'],
	])('%s: exit 2, the column and what was meant, nothing sent', async (when, message) => {
		const before = server.requests.length;
		const bad = await sweep(['--when', when]);
		expect(bad.status).toBe(2);
		expect(bad.stderr.startsWith(`revisit: ${message}`)).toBe(true);
		expect(server.requests.length).toBe(before);
	});
});

// A price move --when holds back is the page's new baseline: revisit log lists it, marked held, never as reported.
describe('--when: a change it holds back is kept as a version, marked held', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	let price = 12;
	beforeAll(async () => {
		server = await startServer((_req, res) => {
			const offer = { '@type': 'Offer', price: String(price), priceCurrency: 'EUR', availability: 'https://schema.org/InStock' };
			res
				.writeHead(200, { 'content-type': 'text/html' })
				.end(
					`<html><head><script type="application/ld+json">` +
						JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Kettle', offers: offer }) +
						`</script></head><body><h1>Kettle</h1><p>${price} EUR</p></body></html>`,
				);
		});
		dir = await tempDir('revisit-when-held-');
	});
	afterAll(async () => {
		await server.close();
		await dir.cleanup();
	});

	it('revisit log marks the held price move, and not the one reported', async () => {
		const url = server.url('/kettle');
		const sweep = () => runCli(['sweep', '--store', path.join(dir.dir, 'store'), '--product', '--ndjson', '--all', '--when', 'price < 10'], `${url}\n`);
		expect((await sweep()).status).toBe(0);
		price = 11;
		expect(ndjson((await sweep()).stdout)).toMatchObject([{ changed: false, reason: 'unmet', product: { price: 11 } }]);
		price = 9;
		expect(ndjson((await sweep()).stdout)).toMatchObject([{ changed: true, reason: 'price', product: { price: 9 } }]);
		const log = await runCli(['log', '--store', path.join(dir.dir, 'store'), '--json', url]);
		expect(log.status).toBe(0);
		expect(ndjson(log.stdout).map(({ n, reason, held, product }) => ({ n, reason, held, price: (product as { price: number }).price }))).toEqual([
			{ n: 3, reason: 'price', held: undefined, price: 9 },
			{ n: 2, reason: 'price', held: true, price: 11 },
			{ n: 1, reason: 'new', held: true, price: 12 },
		]);
		const table = (await runCli(['log', '--store', path.join(dir.dir, 'store'), url])).stdout;
		expect(table).toMatch(/^2 .* price, held /m);
		expect(table).toMatch(/^3 latest .* price +\+1 −1 /m);
	});
});
