import { createHash } from 'node:crypto';
import type http from 'node:http';
import { startServer, type TestServer } from './server.js';

/** One request as the site answered it. */
export interface SpaRequest {
	method: string;
	path: string;
	ifNoneMatch?: string;
	ifModifiedSince?: string;
	status: number;
}

/** The fixture site of issue 29, with what the test can read and set. */
export interface SpaSite extends TestServer {
	/** Every request answered, in the order the answers finished. */
	log: SpaRequest[];
	/** The log's entries for one path. */
	logOf(path: string): SpaRequest[];
	/** Price of product N (`/api/price/N`); 10 + N until the test sets it. */
	prices: Map<number, number>;
	/** Hold each API answer this long (a render then keeps its page open that long). */
	apiDelayMs: number;
	/** API requests in flight now, and the most at once. */
	api: { inFlight: number; most: number };
	/** The site's robots.txt; unset, /robots.txt is a 404 (everything allowed). */
	robots?: string | undefined;
}

const LAST_MODIFIED = 'Sun, 06 Dec 2026 08:00:00 GMT';
const etagOf = (text: string) => `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;
const money = (price: number) => price.toFixed(2);

/** The server-rendered page: its offer in JSON-LD and in `.price`, no script. */
const staticPage = (price: number) =>
	'<!doctype html><html><head><title>Kettle</title>' +
	(`<script type="application/ld+json">` +
		JSON.stringify({
			'@context': 'https://schema.org',
			'@type': 'Product',
			name: 'Kettle',
			offers: { '@type': 'Offer', price: money(price), priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
		}) +
		`</script>`) +
	`</head><body><h1>Kettle</h1><p class="price">${money(price)} EUR</p></body></html>`;

/**
 * A shell as SPAs ship it: an empty `.price` that /app.js fills in from `/api/price/ID`
 * after `delay` ms, an image and a web font (a render must not fetch them).
 */
const shell = (id: number, delay = 0, api = `/api/price/${id}`) =>
	'<!doctype html><html><head><title>Product</title>' +
	'<style>@font-face { font-family: Shop; src: url(/font.woff2) format("woff2"); } body { font-family: Shop, sans-serif; }</style></head>' +
	`<body><h1>Product ${id}</h1><img src="/photo.jpg" alt=""><p class="price"></p>` +
	`<script src="/app.js" data-id="${id}" data-delay="${delay}" data-api="${api}"></script></body></html>`;

/** The SPA's script: fetches the price, writes it into `.price` and a JSON-LD Offer (so --product can read it). */
const APP_JS =
	`(() => {
	const { id, delay, api } = document.currentScript.dataset;
	setTimeout(async () => {
		const answer = await fetch(api);
		const { price, currency } = await answer.json();
		document.querySelector('.price').textContent = price.toFixed(2) + ' ' + currency;
		const ld = document.createElement('script');
		ld.type = 'application/ld+json';
		ld.textContent = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Product ' + id, offers: { '@type': 'Offer', price: ` +
	`price.toFixed(2), priceCurrency: currency, availability: 'https://schema.org/InStock' } });
		document.head.append(ld);
	}, Number(delay));
})();
`;

/** Answers `text` with a strong ETag, or a 304 when If-None-Match names it. */
function withEtag(req: http.IncomingMessage, res: http.ServerResponse, type: string, text: string, extra: Record<string, string> = {}): void {
	const etag = etagOf(text);
	if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag, ...extra }).end();
	res.writeHead(200, { 'content-type': type, etag, 'cache-control': 'no-cache', ...extra }).end(text);
}

/**
 * Issue 29's fixture site on 127.0.0.1: `/static`, a server-rendered product page;
 * `/spa-api`, a shell whose /app.js reads the price from `/api/price/1`; `/spa-late`,
 * the same showing `/api/price/2` only 1.5 s after load; `/spa-moved`, whose API call
 * (`/api/moved/5`) is redirected to `/api/price/5`; `/spa/N` for benches (`/api/price/N`).
 * Shells, script and API answer with strong ETags and 304 on If-None-Match; `/static`
 * with an ETag and Last-Modified. Every request is logged with its validators and status.
 *
 * @example
 * const site = await startSpaSite();
 * site.prices.set(1, 19.5);
 * site.logOf('/api/price/1') // [{ method: 'GET', path: '/api/price/1', status: 200 }, ...]
 */
export async function startSpaSite(): Promise<SpaSite> {
	const log: SpaRequest[] = [];
	const prices = new Map<number, number>();
	const api = { inFlight: 0, most: 0 };
	// The returned site's apiDelayMs is an accessor onto this.
	const site = { apiDelayMs: 0 };
	const server = await startServer((req, res) => {
		const path = req.url ?? '/';
		res.on('finish', () =>
			log.push({
				method: req.method ?? '',
				path,
				...(req.headers['if-none-match'] ? { ifNoneMatch: req.headers['if-none-match'] } : {}),
				...(req.headers['if-modified-since'] ? { ifModifiedSince: req.headers['if-modified-since'] } : {}),
				status: res.statusCode,
			}),
		);
		const priceId = /^\/api\/price\/(\d+)$/.exec(path)?.[1];
		const spaId = /^\/spa\/(\d+)$/.exec(path)?.[1];
		if (path === '/static') {
			if (req.headers['if-modified-since'] === LAST_MODIFIED && !req.headers['if-none-match']) return void res.writeHead(304).end();
			return withEtag(req, res, 'text/html; charset=utf-8', staticPage(prices.get(0) ?? 10), { 'last-modified': LAST_MODIFIED });
		}
		if (path === '/spa-api') return withEtag(req, res, 'text/html; charset=utf-8', shell(1));
		if (path === '/spa-late') return withEtag(req, res, 'text/html; charset=utf-8', shell(2, 1500));
		if (path === '/spa-moved') return withEtag(req, res, 'text/html; charset=utf-8', shell(5, 0, '/api/moved/5'));
		const movedId = /^\/api\/moved\/(\d+)$/.exec(path)?.[1];
		if (movedId) return void res.writeHead(302, { location: `/api/price/${movedId}` }).end();
		if (spaId) return withEtag(req, res, 'text/html; charset=utf-8', shell(Number(spaId)));
		if (path === '/app.js') return withEtag(req, res, 'text/javascript', APP_JS);
		if (priceId) {
			api.most = Math.max(api.most, ++api.inFlight);
			const id = Number(priceId);
			return void setTimeout(() => {
				api.inFlight--;
				withEtag(req, res, 'application/json', JSON.stringify({ price: prices.get(id) ?? 10 + id, currency: 'EUR' }));
			}, site.apiDelayMs);
		}
		if (path === '/robots.txt' && spa.robots !== undefined) return void res.writeHead(200, { 'content-type': 'text/plain' }).end(spa.robots);
		if (path === '/photo.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.alloc(64));
		if (path === '/font.woff2') return void res.writeHead(200, { 'content-type': 'font/woff2' }).end(Buffer.alloc(64));
		res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
	});
	const spa: SpaSite = Object.assign(server, { log, logOf: (path: string) => log.filter((entry) => entry.path === path), prices, api, apiDelayMs: 0 });
	Object.defineProperty(spa, 'apiDelayMs', { get: () => site.apiDelayMs, set: (ms: number) => void (site.apiDelayMs = ms) });
	return spa;
}
