import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// Pages whose every answer differs (a CSRF token, a timestamp, a rotating ad) while the price, the real content, stays.
describe('content rules (noisy pages)', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	const price = new Map<string, number>();
	let served = 0;
	let priceGone = false;
	beforeAll(async () => {
		server = await startServer((req, res) => {
			served++;
			const url = req.url!;
			if (url.startsWith('/json/')) {
				return void res
					.writeHead(200, { 'content-type': 'application/json' })
					.end(JSON.stringify({ requestId: `${Math.random()}`, item: { price: price.get(url) ?? 5, name: url } }));
			}
			if (url === '/bin') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, served % 256, 0, 1]));
			if (url === '/broken') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<div><p class=price>5<b></div></span><i>${served}`);
			const priceHtml = url === '/moving' && priceGone ? '' : `<p class="price">Price: $${price.get(url) ?? 10}</p>`;
			res
				.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
				.end(
					`<html><head><script>var nonce = "${Math.random().toString(36).slice(2)}";</script></head><body>` +
						`<form><input type="hidden" name="csrf" value="${Math.random().toString(36).slice(2)}"></form>` +
						`<p class="stamp">Generated at ${new Date(Date.now() + served * 1000).toISOString()}</p>` +
						`<div class="ad">${['Buy A', 'Buy B', 'Buy C'][served % 3]}</div>${priceHtml}</body></html>`,
				);
		});
	});
	afterAll(() => server.close());
	beforeEach(async () => {
		price.clear();
		priceGone = false;
		dir = await tempDir('revisit-rules-');
	});
	afterEach(() => dir.cleanup());
	const pages = () => ['/p/1', '/p/2', '/p/3'].map((p) => server.url(p));
	const sweep = (args: string[], urls = pages()) =>
		runCli(['sweep', '--store', path.join(dir.dir, 'store'), '--ndjson', '--all', '-q', '--audit', '0', ...args], urls.join('\n'));
	const changed = (stdout: string) =>
		ndjson(stdout)
			.filter((verdict) => verdict.changed)
			.map((verdict) => verdict.url);
	const reasons = (stdout: string) => ndjson(stdout).map((verdict) => verdict.reason);

	it('without rules, every run reports the noisy pages', async () => {
		await sweep([]);
		expect(changed((await sweep([])).stdout)).toHaveLength(3);
	});

	it('--select .price: nothing until the price changes, then exactly that URL', async () => {
		expect(changed((await sweep(['--select', '.price'])).stdout)).toHaveLength(3);
		for (let run = 0; run < 3; run++) {
			const { stdout } = await sweep(['--select', '.price']);
			expect(changed(stdout)).toEqual([]);
			expect(reasons(stdout)).toEqual(['same-content', 'same-content', 'same-content']);
		}
		price.set('/p/2', 12);
		const { stdout } = await sweep(['--select', '.price']);
		expect(changed(stdout)).toEqual([server.url('/p/2')]);
		expect(ndjson(stdout).find((verdict) => verdict.changed)?.reason).toBe('new-body');
	});

	it('--text with --ignore patterns for the timestamp and the ad: nothing until the price changes', async () => {
		const rules = ['--text', '--ignore', 'Generated at \\S+', '--ignore', 'Buy [ABC]'];
		await sweep(rules);
		expect(changed((await sweep(rules)).stdout)).toEqual([]);
		price.set('/p/3', 11);
		expect(changed((await sweep(rules)).stdout)).toEqual([server.url('/p/3')]);
	});

	it('a changed rule takes the new content as the baseline without reporting, and says so', async () => {
		await sweep(['--select', '.price']);
		const { stdout } = await sweep(['--select', '.price', '--select', 'form']);
		expect(changed(stdout)).toEqual([]);
		expect(reasons(stdout)).toEqual(['rebaseline', 'rebaseline', 'rebaseline']);
		expect(changed((await sweep(['--select', '.price', '--select', 'h1'])).stdout)).toEqual([]);
	});

	it('a selector that stops matching is reported: the page moved', async () => {
		const urls = [server.url('/moving')];
		await sweep(['--select', '.price'], urls);
		priceGone = true;
		const { stdout } = await sweep(['--select', '.price'], urls);
		expect(ndjson(stdout)).toMatchObject([{ url: urls[0], changed: true, reason: 'selector-gone' }]);
	});

	it('binary and malformed bodies do not crash a run; JSON rules from a --rules file keep only the pointers', async () => {
		const rulesFile = path.join(dir.dir, 'rules.json');
		await writeFile(rulesFile, JSON.stringify([{ match: '/json/', pointer: ['/item/price'] }, { select: ['.price'] }]));
		const urls = [server.url('/bin'), server.url('/broken'), server.url('/json/a'), server.url('/json/b')];
		const first = await runCli(['sweep', '--store', path.join(dir.dir, 'store'), '--rules', rulesFile], urls.join('\n'));
		expect(first.status).toBe(0);
		expect(first.stderr.match(/hashed as bytes/g)).toHaveLength(1);
		expect(first.stderr).toContain(`${server.url('/bin')}: its content rule needs HTML or JSON, and this body is neither`);
		const second = await sweep(['--rules', rulesFile], urls);
		expect(second.status).toBe(0);
		// The binary body changes every time and is hashed as bytes; the rest is quiet.
		expect(changed(second.stdout)).toEqual([server.url('/bin')]);
		price.set('/json/b', 6);
		expect(changed((await sweep(['--rules', rulesFile], urls)).stdout)).toEqual([server.url('/bin'), server.url('/json/b')]);
	});

	it('the same through a pipeline file: the compare stage takes rules', async () => {
		const file = path.join(dir.dir, 'noisy.json');
		const config = {
			store: path.join(dir.dir, 'store'),
			source: { type: 'urls', urls: pages() },
			stages: [{ use: 'compare', rules: [{ select: ['.price'] }] }],
			sinks: [{ type: 'stdout' }],
		};
		await writeFile(file, JSON.stringify(config));
		expect((await runCli(['run', file, '-q'])).stdout.trim().split('\n')).toHaveLength(3);
		expect((await runCli(['run', file, '-q'])).stdout).toBe('');
		price.set('/p/1', 99);
		expect((await runCli(['run', file, '-q'])).stdout.trim()).toBe(server.url('/p/1'));
	});

	it('revisit rules test shows what counts; revisit check validates rule lists', async () => {
		const shown = await runCli(['rules', 'test', server.url('/p/1'), '--select', '.price']);
		expect(shown.status).toBe(0);
		expect(shown.stdout).toBe('<p class="price">Price: $10</p>\n');
		expect(shown.stderr).toMatch(/rule 1 of 1; read as html; counted 31 of \d+ bytes; content hash [0-9a-f]{32}/);
		const bad = path.join(dir.dir, 'bad.json');
		await writeFile(bad, JSON.stringify([{ select: ['.price'] }, { ignore: ['(unclosed'] }, { pointer: ['no-slash'] }]));
		const checked = await runCli(['check', bad]);
		expect(checked.status).toBe(2);
		expect(checked.stderr).toContain(`${bad}:1:35: /1/ignore/0: must be a regular expression`);
		expect(checked.stderr).toContain(`${bad}:1:61: /2/pointer/0: must be a JSON Pointer`);
		const good = path.join(dir.dir, 'good.json');
		await writeFile(good, JSON.stringify([{ match: 'shop.example', select: ['.price'] }]));
		expect((await runCli(['check', good])).stdout).toBe(`${good}: valid rule list (1 rule)\n`);
	});
});
