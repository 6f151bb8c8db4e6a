// A shop of SPA pages for bench/render.js, forked as its own process so that its CPU is not
// the client's: `fork('bench/lib/spa-origin.js', [pages, seed])`.
//
// As test/helpers/spa-site.ts serves /spa/N: GET /spa/<n> is a shell (an empty `.price`, an
// image, a web font and /app.js) that /app.js fills in from /api/price/<n>, writing the
// price into `.price` and a JSON-LD Offer. Shells, script and API answer with a strong ETag
// and a 304 on If-None-Match. GET /static/<n> is the same product server-rendered (the
// price in `.price` and in JSON-LD, no script), about the size of a rendered shell, with a
// strong ETag: the plain check a render is compared with. Prices are seeded per page.
//
// IPC: sends {type:'ready', port}; {type:'change', fraction, seed} moves the price of that
// seeded share of the pages and answers {type:'changed', paths} (the /spa/ paths);
// {type:'reset'} puts every price back to the seeded one and the counters to zero, answering
// {type:'reset'}; {type:'stats'} answers {type:'stats', requests, bytesOut, bytesIn}, the
// requests per kind and status and the bytes on the wire since the last reset;
// {type:'close'} exits.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { mulberry32 } from './prng.js';
import { dropPrices } from './price-drops.js';
import { serveForked } from './forked-server.js';

const pages = Number(process.argv[2] ?? 200);
const seed = Number(process.argv[3] ?? 1);
if (!(Number.isInteger(pages) && pages > 0 && Number.isInteger(seed))) throw new TypeError(`spa-origin: bad arguments ${process.argv.slice(2).join(' ')}`);

const etagOf = (text) => `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;
const money = (cents) => (cents / 100).toFixed(2);
const offer = (n, cents) =>
	JSON.stringify({
		'@context': 'https://schema.org',
		'@type': 'Product',
		name: `Product ${n}`,
		offers: { '@type': 'Offer', price: money(cents), priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
	});

const shell = (n) =>
	'<!doctype html><html><head><title>Product</title>' +
	'<style>@font-face { font-family: Shop; src: url(/font.woff2) format("woff2"); } body { font-family: Shop, sans-serif; }</style></head>' +
	`<body><h1>Product ${n}</h1><img src="/photo.jpg" alt=""><p class="price"></p>` +
	`<script src="/app.js" data-id="${n}"></script></body></html>`;

// The shell once its script ran, less the script tag: what a plain check of a server-rendered shop reads.
const staticPage = (n, cents) =>
	'<!doctype html><html><head><title>Product</title>' +
	'<style>@font-face { font-family: Shop; src: url(/font.woff2) format("woff2"); } body { font-family: Shop, sans-serif; }</style>' +
	`<script type="application/ld+json">${offer(n, cents)}</script></head>` +
	`<body><h1>Product ${n}</h1><img src="/photo.jpg" alt=""><p class="price">${money(cents)} EUR</p></body></html>`;

const APP_JS =
	`(() => {
	const { id } = document.currentScript.dataset;
	fetch('/api/price/' + id).then((answer) => answer.json()).then(({ price, currency }) => {
		document.querySelector('.price').textContent = price.toFixed(2) + ' ' + currency;
		const ld = document.createElement('script');
		ld.type = 'application/ld+json';
		ld.textContent = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Product ' + id, offers: { '@type': 'Offer', price: ` +
	`price.toFixed(2), priceCurrency: currency, availability: 'https://schema.org/InStock' } });
		document.head.append(ld);
	});
})();
`;

const seeded = () => {
	const random = mulberry32(seed);
	return Array.from({ length: pages }, () => 1000 + Math.floor(random() * 99_000));
};
let prices = seeded();

let requests = {};
const sockets = new Set();
const closed = { out: 0, in: 0 };
let base = { out: 0, in: 0 };
const wire = () => {
	const total = { ...closed };
	for (const socket of sockets) {
		total.out += socket.bytesWritten;
		total.in += socket.bytesRead;
	}
	return total;
};

function answer(req, res, kind, type, text) {
	const etag = etagOf(text);
	res.on('finish', () => {
		const key = `${kind} ${res.statusCode}`;
		requests[key] = (requests[key] ?? 0) + 1;
	});
	if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) return void res.writeHead(304, { etag }).end();
	const body = Buffer.from(text);
	res
		.writeHead(200, { 'content-type': type, etag, 'cache-control': 'no-cache', 'content-length': String(body.length) })
		.end(req.method === 'HEAD' ? undefined : body);
}

const server = http.createServer((req, res) => {
	const path = req.url ?? '/';
	const [, kind, id] = /^\/(spa|static|api\/price)\/(\d{1,9})$/.exec(path) ?? [];
	const n = id === undefined ? -1 : Number(id);
	if (kind && n < pages) {
		if (kind === 'spa') return answer(req, res, 'shell', 'text/html; charset=utf-8', shell(n));
		if (kind === 'static') return answer(req, res, 'static', 'text/html; charset=utf-8', staticPage(n, prices[n]));
		return answer(req, res, 'api', 'application/json', JSON.stringify({ price: prices[n] / 100, currency: 'EUR' }));
	}
	if (path === '/app.js') return answer(req, res, 'app.js', 'text/javascript', APP_JS);
	res.on('finish', () => {
		const key = `other ${res.statusCode}`;
		requests[key] = (requests[key] ?? 0) + 1;
	});
	if (path === '/photo.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '64' }).end(Buffer.alloc(64));
	if (path === '/font.woff2') return void res.writeHead(200, { 'content-type': 'font/woff2', 'content-length': '64' }).end(Buffer.alloc(64));
	res.writeHead(404, { 'content-length': '0' }).end();
});
server.on('connection', (socket) => {
	sockets.add(socket);
	socket.on('close', () => {
		sockets.delete(socket);
		closed.out += socket.bytesWritten;
		closed.in += socket.bytesRead;
	});
});
serveForked(server, (message) => {
	if (message.type === 'change') {
		// A seeded share of the pages, each price down by 1% to 20% (at least a cent).
		const chosen = dropPrices(prices, message.seed, message.fraction);
		process.send?.({ type: 'changed', paths: chosen.map((n) => `/spa/${n}`) });
	} else if (message.type === 'reset') {
		prices = seeded();
		requests = {};
		base = wire();
		process.send?.({ type: 'reset' });
	} else if (message.type === 'stats') {
		const now = wire();
		process.send?.({ type: 'stats', requests, bytesOut: now.out - base.out, bytesIn: now.in - base.in });
	}
});
