import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPipeline } from '../../../src/api/pipeline.js';
import { parseSitemap } from '../../../src/io/sources/sitemap-xml.js';
import { MemoryStore } from '../../../src/store/level/memory.js';
import { startServer, type TestServer } from '../../helpers/server.js';

describe('parseSitemap', () => {
	it('reads loc and lastmod of each entry, with entities, CDATA, namespace prefixes, comments and line numbers', () => {
		const xml = [
			'<?xml version="1.0" encoding="UTF-8"?>',
			'<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
			'  <!-- <sm:url><sm:loc>https://example.org/commented</sm:loc></sm:url> -->',
			'  <sm:url>',
			'    <image:image><image:loc>https://cdn.example.org/a.png</image:loc></image:image>',
			'    <sm:loc> https://example.org/a?x=1&amp;y=2 </sm:loc>',
			'    <sm:lastmod>2024-05-01T10:00:00+00:00</sm:lastmod>',
			'  </sm:url>',
			'  <sm:url><sm:loc><![CDATA[https://example.org/b?q=<1>]]></sm:loc></sm:url>',
			'  <sm:url><sm:lastmod>2024-01-01</sm:lastmod></sm:url>',
			'</sm:urlset>',
		].join('\n');
		expect(parseSitemap(xml)).toEqual({
			kind: 'urlset',
			entries: [
				{ loc: 'https://example.org/a?x=1&y=2', lastmod: '2024-05-01T10:00:00+00:00', line: 4 },
				{ loc: 'https://example.org/b?q=<1>', line: 9 },
			],
		});
	});

	it('tells a sitemap index from a urlset, and neither from other XML', () => {
		expect(parseSitemap('<sitemapindex><sitemap><loc>https://example.org/s1.xml</loc><lastmod>2024-02-02</lastmod></sitemap></sitemapindex>')).toEqual({
			kind: 'sitemapindex',
			entries: [{ loc: 'https://example.org/s1.xml', lastmod: '2024-02-02', line: 1 }],
		});
		expect(parseSitemap('<html><body>not found</body></html>')).toEqual({ kind: 'unknown', entries: [] });
	});
});

describe('sitemap source', () => {
	let server: TestServer;
	beforeEach(async () => {
		server = await startServer((req, res) => {
			const url = (path: string) => server.url(path);
			const index = (...locs: string[]) =>
				`<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
				locs.map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`).join('\n') +
				`\n</sitemapindex>`;
			const urlset = (entries: string[]) =>
				`<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>`;
			switch (req.url) {
				case '/sitemap.xml':
					// A nested index, a gzipped file, a gzip Content-Encoding, a missing sitemap, and a cycle back here.
					return void res.end(index(url('/nested/index.xml'), url('/pages-b.xml.gz'), url('/pages-c.xml'), url('/missing.xml'), url('/sitemap.xml')));
				case '/nested/index.xml':
					return void res.end(index(url('/pages-a.xml')));
				case '/pages-a.xml':
					return void res.end(
						urlset([
							`  <url><loc>${url('/a1')}</loc><lastmod>2024-05-01</lastmod></url>`,
							`  <url><loc>${url('/a2')}</loc></url>`,
							'  <url><loc>not a url</loc></url>',
							// Loopback, but another host name than the sitemap's.
							`  <url><loc>${url('/x').replace('127.0.0.1', 'localhost')}</loc></url>`,
						]),
					);
				case '/pages-b.xml.gz':
					return void res
						.writeHead(200, { 'content-type': 'application/x-gzip' })
						.end(gzipSync(urlset([`<url><loc>${url('/b1')}</loc><lastmod>2023-12-24</lastmod></url>`])));
				case '/pages-c.xml':
					return void res
						.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/xml' })
						.end(gzipSync(urlset([`<url><loc>${url('/c1?x=1&amp;y=2')}</loc></url>`])));
				case '/missing.xml':
					return void res.writeHead(404).end('no');
				default:
					return void res.end(`page ${req.url}`);
			}
		});
	});
	afterEach(() => server.close());

	const pipeline = (stages: object[] = []) => {
		const diagnostics: string[] = [];
		const made = createPipeline(
			{
				store: { type: 'memory' },
				source: { type: 'sitemap', url: server.url('/sitemap.xml') },
				stages: [...stages, { use: 'probe', audit: 0 }] as never,
				sinks: [{ type: 'stdout', when: 'all' }],
			},
			{ stdout: new PassThrough().resume(), diagnose: (text) => diagnostics.push(text) },
		);
		return { made, diagnostics };
	};

	it('follows nested and gzipped sitemaps once each, keeps lastmod, and reports the sitemaps and entries it could not use', async () => {
		const { made, diagnostics } = pipeline();
		const verdicts = await lastValueFrom(made.verdicts$.pipe(toArray()));
		expect(verdicts.map((verdict) => [verdict.url, verdict.reason, verdict.lastmod]).sort()).toEqual(
			[
				[server.url('/a1'), 'new', '2024-05-01'],
				[server.url('/a2'), 'new', undefined],
				[server.url('/x').replace('127.0.0.1', 'localhost'), 'new', undefined],
				[server.url('/b1'), 'new', '2023-12-24'],
				[server.url('/c1?x=1&y=2'), 'new', undefined],
				['not a url', 'error', undefined],
				[server.url('/missing.xml'), 'error', undefined],
			].sort(),
		);
		expect(diagnostics).toEqual(
			expect.arrayContaining([
				`${server.url('/pages-a.xml')} line 5: not an absolute URL: "not a url"`,
				`sitemap ${server.url('/missing.xml')}: could not be fetched: the server answered 404`,
			]),
		);
		for (const path of ['/sitemap.xml', '/nested/index.xml', '/pages-a.xml', '/pages-b.xml.gz', '/pages-c.xml'])
			expect(server.seen(path), path).toHaveLength(1);
	});

	it("with a sameHost filter, drops entries on other hosts than the sitemap's", async () => {
		const { made } = pipeline([{ use: 'filter', sameHost: true }]);
		const summary = await made.run();
		// The line that is no URL is a bad line; the sitemap that answered 404, an error of the source.
		expect(summary).toMatchObject({ urls: 4, changed: 4, filtered: 1, rejected: 1, sourceErrors: 1 });
	});

	it("reads the sitemap through the run's client: one User-Agent, Accept-Encoding pinned", async () => {
		await pipeline().made.run();
		const [request] = server.seen('/sitemap.xml');
		expect(request?.headers['user-agent']).toMatch(/^revisit\//);
		expect(request?.headers['accept-encoding']).toBe('gzip');
	});

	it('commits into the store it was given', async () => {
		const store = new MemoryStore();
		const made = createPipeline(
			{ source: { type: 'sitemap', url: server.url('/nested/index.xml') }, sinks: [{ type: 'stdout' }] },
			{ store, stdout: new PassThrough().resume(), diagnose: () => {} },
		);
		await made.run();
		expect((await store.getMany([server.url('/a1')]))[0]).toMatchObject({ status: 200 });
	});
});
