import { createHash, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The pages the docs' runnable examples may use, as `$SITE/PATH`. Keep this list in step
 * with docs/1-usage.md ("Examples in these pages"), which tells readers what is here.
 */
export const SITE_PAGES = {
	'/a': 'strong ETag; 304 when If-None-Match matches',
	'/b': 'strong ETag',
	'/c': 'strong ETag',
	'/lastmod': 'Last-Modified only; 304 when If-Modified-Since is that exact string',
	'/plain': 'no validators, same body every time',
	'/item/7': 'a product page: a stable .price and .stock, a timestamp (.stamp), an ad (.ad) and a nonce that change on every request',
	'/item/8': 'a product page whose .price goes up on every request',
	'/news': 'an article with a clock time and a comment count that change on every request',
	'/api.json': 'JSON: a requestId and a views count change on every request, data.price and data.available do not',
	'/gone': '410 Gone',
	'/sitemap.xml': 'a sitemap of /a, /b, /c and /lastmod',
	'/hook': 'a webhook receiver: 204 to any POST',
	'/shop/9': 'a product page with a JSON-LD offer (49.90 EUR, in stock) whose priceValidUntil and timestamp change on every request',
	'/shop/10': 'a product page without structured data: "Jetzt nur 1.299,00 € inkl. MwSt." in .cost, "Ausverkauft" in .stock',
	'/robots.txt': 'allows every page to every crawler, with no Crawl-delay',
} as const;

/** What each example's working directory starts with: urls.txt lists these pages. */
export const URLS_TXT = ['/a', '/b', '/c', '/lastmod', '/plain', '/item/7'];

// Fixed strings, never the clock: a 304 must be answerable for the exact date sent.
const LAST_MODIFIED = 'Mon, 01 Jan 2024 00:00:00 GMT';

function html(title: string, body: string): string {
	return `<!doctype html>\n<html><head><title>${title}</title></head>\n<body>\n${body}\n</body></html>\n`;
}

function withEtag(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
	const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
	if (req.headers['if-none-match'] === etag) {
		res.writeHead(304, { etag }).end();
		return;
	}
	res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
}

/** Starts the docs' example site on 127.0.0.1 with an ephemeral port. */
export async function startDocsSite(): Promise<TestServer> {
	let price8 = 10;
	let views = 900;
	let comments = 0;
	let server: TestServer | undefined;
	server = await startServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://x');
		const site = server!.origin;
		switch (url.pathname) {
			case '/':
				return withEtag(
					req,
					res,
					html(
						'docs site',
						Object.keys(SITE_PAGES)
							.map((p) => `<a href="${p}">${p}</a>`)
							.join('\n'),
					),
				);
			case '/a':
			case '/b':
			case '/c':
				return withEtag(req, res, html(`page ${url.pathname}`, `<p>This is page ${url.pathname}.</p>`));
			case '/lastmod':
				if (req.headers['if-modified-since'] === LAST_MODIFIED) return void res.writeHead(304, { 'last-modified': LAST_MODIFIED }).end();
				return void res.writeHead(200, { 'content-type': 'text/html', 'last-modified': LAST_MODIFIED }).end(html('lastmod', '<p>Dated, no ETag.</p>'));
			case '/plain':
				return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('plain', '<p>No validators here.</p>'));
			case '/item/7':
				return void res
					.writeHead(200, { 'content-type': 'text/html' })
					.end(
						html(
							'item 7',
							[
								'<p class="price">$10</p>',
								'<p class="stock">In stock</p>',
								`<p class="stamp">Generated at ${new Date().toISOString()}</p>`,
								`<p class="ad">Sponsored: ${randomUUID()}</p>`,
								`<script>window.nonce = "${randomUUID()}";</script>`,
							].join('\n'),
						),
					);
			case '/item/8':
				return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('item 8', `<p class="price">$${price8++}</p>\n<p class="stock">In stock</p>`));
			case '/news': {
				const now = new Date();
				return void res
					.writeHead(200, { 'content-type': 'text/html' })
					.end(
						html(
							'news',
							[
								'<article><h1>Harbour reopens</h1><p>The harbour reopened this morning.</p></article>',
								`<p>Updated ${now.toISOString().slice(11, 19)}</p>`,
								`<p>${comments++} comments</p>`,
							].join('\n'),
						),
					);
			}
			case '/api.json':
				return void res
					.writeHead(200, { 'content-type': 'application/json' })
					.end(JSON.stringify({ requestId: randomUUID().slice(0, 8), data: { price: 5, available: true, views: views++ } }));
			case '/hook':
				req.resume();
				return void req.on('end', () => res.writeHead(req.method === 'POST' ? 204 : 405).end());
			case '/shop/9': {
				const offer = {
					'@type': 'Offer',
					price: '49.90',
					priceCurrency: 'EUR',
					availability: 'https://schema.org/InStock',
					priceValidUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
				};
				return void res
					.writeHead(200, { 'content-type': 'text/html' })
					.end(
						html(
							'shop 9',
							[
								`<script type="application/ld+json">` +
									JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Kettle', offers: offer }) +
									`</script>`,
								'<h1>Kettle</h1><p class="price">Now only 49,90 €</p>',
								`<p class="stamp">Generated at ${new Date().toISOString()}</p>`,
							].join('\n'),
						),
					);
			}
			case '/shop/10':
				return void res
					.writeHead(200, { 'content-type': 'text/html' })
					.end(
						html(
							'shop 10',
							`<h1>Lamp</h1>\n<p class="cost">Jetzt nur 1.299,00 € inkl. MwSt.</p>\n<p class="stock">Ausverkauft</p>\n<p class="stamp">${randomUUID()}</p>`,
						),
					);
			case '/gone':
				return void res.writeHead(410).end('gone');
			case '/robots.txt':
				// The examples run with robots.txt obeyed, as users run them: every page allowed.
				return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
			case '/sitemap.xml':
				return void res
					.writeHead(200, { 'content-type': 'application/xml' })
					.end(
						[
							'<?xml version="1.0" encoding="UTF-8"?>',
							'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
							...['/a', '/b', '/c', '/lastmod'].map((p) => `<url><loc>${site}${p}</loc><lastmod>2024-01-01</lastmod></url>`),
							'</urlset>',
							'',
						].join('\n'),
					);
			default:
				return void res.writeHead(404).end('not found');
		}
	});
	return server;
}
