import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Sitemaps that are not what they should be, as a nightly `revisit run` meets them: each
// is an error of the source, named on stderr and counted, and the run exits 1.

describe('a sitemap source that is cut short, or not a sitemap', () => {
	let server: TestServer;
	let dir: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		server = await startServer((req, res) => {
			const whole = (paths: string[]) =>
				[
					'<?xml version="1.0" encoding="UTF-8"?>',
					'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
					...paths.map((p) => `  <url><loc>${server.url(p)}</loc></url>`),
					'</urlset>',
					'',
				].join('\n');
			if (req.url === '/whole.xml') return void res.writeHead(200, { 'content-type': 'application/xml' }).end(whole(['/a', '/b', '/c']));
			// The same document, the connection dropped in the middle of its third entry.
			if (req.url === '/cut.xml') {
				const text = whole(['/a', '/b', '/c']);
				return void res.writeHead(200, { 'content-type': 'application/xml' }).end(text.slice(0, text.indexOf('/c</loc>')));
			}
			if (req.url === '/page.html')
				return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>\n<html><body>Our sitemap moved</body></html>\n');
			res.end(`page ${req.url}`);
		});
		dir = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await dir.cleanup();
	});

	const run = async (sitemaps: string[]) => {
		const file = path.join(dir.dir, 'pipeline.json');
		await writeFile(
			file,
			JSON.stringify({
				store: { type: 'memory' },
				source: sitemaps.map((p) => ({ type: 'sitemap', url: server.url(p) })),
				sinks: [{ type: 'stdout', format: 'ndjson', when: 'all' }],
			}),
		);
		return runCli(['run', file]);
	};

	it('reads a whole sitemap without a word on stderr but the summary, and exits 0', async () => {
		const { status, stdout, stderr } = await run(['/whole.xml']);
		expect(status).toBe(0);
		expect(ndjson(stdout).map((verdict) => verdict.url)).toEqual(['/a', '/b', '/c'].map((p) => server.url(p)));
		expect(stderr.trimEnd().split('\n')).toHaveLength(1);
	});

	it('reports one cut short as an error of the source, checks its whole entries, and exits 1', async () => {
		const { status, stdout, stderr } = await run(['/cut.xml']);
		expect(status).toBe(1);
		expect(
			ndjson(stdout)
				.filter((verdict) => verdict.reason !== 'error')
				.map((verdict) => verdict.url),
		).toEqual([server.url('/a'), server.url('/b')]);
		expect(stderr).toContain(
			`revisit: sitemap ${server.url('/cut.xml')}: not well-formed XML, cut short: it ends on line 5 inside <loc> (line 5), <url> (line 5), ` +
				`<urlset> (line 2); the 2 whole entries before that are read\n`,
		);
		expect(stderr).toMatch(/^revisit: 2 URLs, 2 changed, .*, 0 errors, 1 source error, /m);
		expect(stderr).not.toContain('bad line');
	});

	it('says what a sitemap that is not one is (an HTML page), as an error of the source, not a bad line', async () => {
		const { status, stderr } = await run(['/page.html', '/whole.xml']);
		expect(status).toBe(1);
		expect(stderr).toContain(`revisit: sitemap ${server.url('/page.html')}: not a sitemap: an HTML page (no <urlset> or <sitemapindex>)\n`);
		expect(stderr).toMatch(/^revisit: 3 URLs, 3 changed, .*, 0 errors, 1 source error, /m);
		expect(stderr).not.toContain('bad line');
	});
});
