// A shop for bench/product-sweep.js, forked as its own process so that its CPU is not
// the client's: `fork('bench/lib/product-origin.js', [pages, seed, 'none'|'etag'])`.
//
// GET /p/<n> serves one of the four pages in bench/data/product/ (n % 4) with its price
// set per page by a seeded PRNG, and with noise that moves on every answer: the CSRF
// token, the app-state token and the "Page generated at" timestamp. By default no
// validators, as most shops send none; with 'etag' a strong ETag made of the page and its
// price (a shop that tags the product record, not the rendered bytes) and a 304 when it
// matches. /robots.txt is a 404 (everything allowed).
//
// IPC: sends {type:'ready', port}; {type:'change', fraction, seed} moves the price of that
// seeded share of the pages and answers {type:'changed', paths}; {type:'close'} exits.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { DATA } from './product-pages.js';
import { mulberry32 } from './prng.js';
import { dropPrices } from './price-drops.js';
import { serveForked } from './forked-server.js';

const pages = Number(process.argv[2] ?? 200);
const seed = Number(process.argv[3] ?? 1);
const validators = process.argv[4] ?? 'none';
if (!(Number.isInteger(pages) && pages > 0 && Number.isInteger(seed) && ['none', 'etag'].includes(validators))) {
	throw new TypeError(`product-origin: bad arguments ${process.argv.slice(2).join(' ')}`);
}

const en = (cents) => (cents / 100).toFixed(2);
const de = (cents) =>
	en(cents)
		.replace('.', ',')
		.replace(/\B(?=(\d{3})+,)/g, '.');
const sv = (cents) =>
	en(cents)
		.replace('.', ',')
		.replace(/\B(?=(\d{3})+,)/g, ' ');

// What moves on every answer: the CSRF token, the app-state token, the page's timestamp.
const noise = mulberry32(seed ^ 0x9e3779b9);
const token = () => Math.floor(noise() * 2 ** 52).toString(36);
let answers = 0;
const NOISE = [
	['name="csrf" value="[^"]*"', () => `name="csrf" value="${token()}"`],
	['"token":"[^"]*"', () => `"token":"${token()}"`],
	['Page generated at [^<]*', () => `Page generated at ${new Date(Date.UTC(2026, 11, 6) + answers * 1000).toISOString()}`],
];

// Each template's offer price, and every spelling of it on the page; the new price stays
// under the page's other variant prices, so it is still the lowest offer.
const TEMPLATES = [
	{ file: 'magento.html', cents: 12195, spellings: [['$121.95', (c) => `$${en(c)}`]] },
	{
		file: 'opengraph.html',
		cents: 5900,
		spellings: [
			['content="59.00"', (c) => `content="${en(c)}"`],
			['€59,00', (c) => `€${de(c)}`],
		],
	},
	{
		file: 'shopify.html',
		cents: 287920,
		spellings: [
			['"2879.20"', (c) => `"${en(c)}"`],
			['"2879.2"', (c) => `"${en(c)}"`],
			['2.879,20', de],
			['287920', String],
			['2 879,20 kr', (c) => `${sv(c)} kr`],
		],
	},
	{ file: 'yoast-group.html', cents: 129900, spellings: [['1.299,00', de]] },
].map((template) => {
	const text = readFileSync(path.join(DATA, template.file), 'utf8');
	for (const [spelling] of template.spellings) if (!text.includes(spelling)) throw new Error(`${template.file} has no ${spelling}`);
	// Split once around every spelling and every noise field, so an answer is a join.
	const escape = (literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const pattern = new RegExp([...template.spellings.map(([s]) => escape(s)), ...NOISE.map(([source]) => source)].join('|'), 'g');
	const parts = [];
	let last = 0;
	for (const match of text.matchAll(pattern)) {
		parts.push(text.slice(last, match.index));
		const found = template.spellings.find(([s]) => s === match[0]);
		parts.push(found ? found[1] : NOISE.find(([source]) => new RegExp(`^${source}$`).test(match[0]))[1]);
		last = match.index + match[0].length;
	}
	parts.push(text.slice(last));
	return { ...template, parts };
});

const random = mulberry32(seed);
// 60% to 99% of the template's price: under every other price on the page.
const prices = Array.from({ length: pages }, (_, n) => Math.round(TEMPLATES[n % 4].cents * (0.6 + 0.39 * random())));
function render(n) {
	const template = TEMPLATES[n % 4];
	answers++;
	return Buffer.from(template.parts.map((part) => (typeof part === 'string' ? part : part(prices[n]))).join(''));
}

const PATH = /^\/p\/(\d{1,9})$/;
const server = http.createServer((req, res) => {
	const match = PATH.exec(req.url ?? '');
	const n = match ? Number(match[1]) : -1;
	if (n < 0 || n >= pages) {
		res.writeHead(404, { 'content-length': '0' });
		res.end();
		return;
	}
	const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' };
	if (validators === 'etag') {
		headers.etag = `"p${n}-${prices[n]}"`;
		if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim() === headers.etag)) {
			res.writeHead(304, headers);
			res.end();
			return;
		}
	}
	const body = req.method === 'HEAD' ? Buffer.alloc(0) : render(n);
	res.writeHead(200, { ...headers, 'content-length': String(body.length) });
	res.end(body);
});
serveForked(server, (message) => {
	if (message.type === 'change') {
		// A seeded share of the pages, each price down by 1% to 20% (at least a cent).
		const chosen = dropPrices(prices, message.seed, message.fraction);
		process.send?.({ type: 'changed', paths: chosen.map((n) => `/p/${n}`) });
	}
});
