import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;
// A block nested 10,000 deep: walking it recursively overflowed the stack, and the page was an EREQUEST error.
const DEEP = `${'{"@type":"Thing","part":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
const PRODUCT =
	'{"@type":"Product","name":"Lamp","offers":{"@type":"Offer","price":"24.50","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}';

const PAGES: Record<string, string> = {
	'/deep-beside': ld(DEEP) + ld(PRODUCT),
	'/deep-only': ld(DEEP),
	'/deep-microdata':
		`<div itemscope itemtype="https://schema.org/Offer"><span itemprop="price">` +
		`${'<div itemscope>'.repeat(10_000)}$7.25${'</div>'.repeat(10_000)}</span></div>`,
	'/negative': ld('{"@type":"Product","offers":{"price":"-5","priceCurrency":"EUR","availability":"InStock"}}'),
	'/absurd': ld(`{"@type":"Product","offers":{"price":"${'9'.repeat(400)}","priceCurrency":"EUR"}}`),
};

describe('--product on pages whose markup is deep or whose prices are negative or absurd', () => {
	let server: TestServer;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	beforeAll(async () => {
		server = await startServer((req, res) => {
			const body = PAGES[req.url ?? ''];
			res
				.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' })
				.end(`<!doctype html><html><head><title>t</title></head><body>${body ?? ''}</body></html>`);
		});
		dir = await tempDir('revisit-product-guards-');
	});
	afterAll(async () => {
		await server.close();
		await dir.cleanup();
	});

	it('gives every URL a verdict, reading the offer beside the deep block and none from a refused price', async () => {
		const urls = Object.keys(PAGES).map((page) => server.url(page));
		const run = await runCli(['sweep', '--store', `${dir.dir}/store`, '--product', '--ndjson'], urls.join('\n'));
		expect(run.status, run.stderr).toBe(0);
		const rows = Object.fromEntries(ndjson(run.stdout).map((row) => [new URL(row['url'] as string).pathname, row]));
		expect(Object.keys(rows).sort()).toEqual(Object.keys(PAGES).sort());
		for (const row of Object.values(rows)) expect(row['error']).toBeUndefined();
		expect(rows['/deep-beside']!['product']).toEqual({ price: 24.5, currency: 'EUR', availability: 'InStock', source: 'json-ld' });
		expect(rows['/deep-only']).toMatchObject({ product: null, problem: 'no-offer' });
		expect(rows['/deep-microdata']!['product']).toEqual({ price: 7.25, currency: 'USD', source: 'microdata' });
		expect(rows['/negative']!['product']).toEqual({ availability: 'InStock', source: 'json-ld' });
		expect(rows['/absurd']).toMatchObject({ product: null, problem: 'no-offer' });
	});

	it('rules test --product names what was not read and why', async () => {
		const deep = await runCli(['rules', 'test', server.url('/deep-beside'), '--product']);
		expect(deep.status, deep.stderr).toBe(0);
		expect(deep.stderr).toContain('the offer: price 24.5 EUR');
		expect(deep.stderr).toContain('not read:\n  script #1: nested deeper than 64 levels, read no deeper\n');
		const negative = await runCli(['rules', 'test', server.url('/negative'), '--product']);
		expect(negative.stderr).toContain('price "-5" (not read)');
		expect(negative.stderr).toContain('  json-ld script #1 Product.offers: negative price -5 refused\n');
		const absurd = await runCli(['rules', 'test', server.url('/absurd'), '--product']);
		expect(absurd.stderr).toContain('  json-ld script #1 Product.offers: price of 400 digits refused as absurd\n');
	});
});
