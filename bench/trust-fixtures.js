// Fixture sites for the per-host trust figures (bench/trust.js): one plain node:http server
// per server behaviour, on 127.0.0.1 with an ephemeral port. The same behaviours as the
// test fixtures in test/pipelines/trust-sites.ts, re-implemented in plain JS so the bench
// runs against the built CLI without a TypeScript loader.
//
// Pages live at /p/N (the `moved` site: /old/N answers 301 to /new/N). Each page has a
// version, bumped by edit(); bodies and validators derive from (N, version).
import { createHash } from 'node:crypto';
import http from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';

export const BEHAVIOURS = {
	'strong-etag': 'strong ETag',
	'weak-etag': 'weak ETag (W/)',
	'last-modified': 'Last-Modified only',
	'no-validators': 'no validators',
	'rotating-etag': 'new ETag on every response',
	'last-modified-now': 'Last-Modified = now',
	'lying-304': '304 to any If-None-Match',
	'ignores-conditionals': 'conditionals ignored (200, stable ETag)',
	'gzip-etag': 'ETag = hash of gzip bytes',
	'head-405': 'HEAD -> 405',
	'head-stale': 'HEAD gives a stale ETag',
	moved: '301 to another path',
	latin1: 'Latin-1 body, no charset',
	'busy-503': '503 + Retry-After: 1 on every 7th request',
	'gone-410': '410 for deleted pages',
};

const FIXED_LM = Date.UTC(2024, 0, 1);
const FAKE_NOW = Date.UTC(2025, 5, 1);
const FILLER = '<p>filler text for a page of a few hundred bytes</p>'.repeat(8);

export function bodyOf(behaviour, i, version) {
	if (behaviour === 'latin1') {
		return Buffer.from(`<html><body><p>Caf\u00e9 \u00e0 la cr\u00e8me, na\u00efve fa\u00e7ade \u00ff\u00d8 page ${i}, version ${version}</p></body></html>\n`, 'latin1');
	}
	return Buffer.from(`<html><body><h1>Page ${i}</h1><p>version ${version}</p>${FILLER}</body></html>\n`);
}

function handlerFor(behaviour, pages, counts) {
	let responses = 0;
	let served = 0;
	const last503 = new Set();
	return (req, res) => {
		counts.requests++;
		const match = /^\/(p|old|new)\/(\d+)$/.exec(req.url ?? '');
		const i = match ? Number(match[2]) : -1;
		const page = pages[i];
		if (!match || !page) return void res.writeHead(404).end();
		if (behaviour === 'moved' && match[1] !== 'new') return void res.writeHead(301, { location: `/new/${i}` }).end();
		if (behaviour === 'busy-503') {
			served++;
			if (served % 7 === 0 && !last503.has(req.url)) {
				last503.add(req.url);
				counts.busy++;
				return void res.writeHead(503, { 'retry-after': '1' }).end('busy');
			}
			last503.delete(req.url);
		}
		if (behaviour === 'gone-410' && page.deleted) return void res.writeHead(410).end('gone');
		const inm = req.headers['if-none-match'];
		const ims = req.headers['if-modified-since'];
		const body = bodyOf(behaviour, i, page.version);
		const ok = (headers, bytes = body) => {
			if (req.method === 'GET') counts.bodies++;
			res.writeHead(200, { 'content-type': behaviour === 'latin1' ? 'text/html' : 'text/html; charset=utf-8', ...headers }).end(bytes);
		};
		const notModified = (headers) => void res.writeHead(304, headers).end();
		const strong = `"p${i}-v${page.version}"`;
		switch (behaviour) {
			case 'strong-etag':
			case 'moved':
			case 'busy-503':
			case 'gone-410':
				return inm === strong ? notModified({ etag: strong }) : ok({ etag: strong });
			case 'weak-etag': {
				const etag = `W/${strong}`;
				return inm?.replace(/^W\//, '') === strong ? notModified({ etag }) : ok({ etag });
			}
			case 'last-modified': {
				const lastModified = new Date(FIXED_LM + i * 60_000 + page.version * 86_400_000).toUTCString();
				return ims !== undefined && Date.parse(ims) >= Date.parse(lastModified) ? notModified({ 'last-modified': lastModified }) : ok({ 'last-modified': lastModified });
			}
			case 'no-validators':
			case 'latin1':
				return ok({});
			case 'rotating-etag':
				return ok({ etag: `"r${++responses}"` });
			case 'last-modified-now':
				return ok({ 'last-modified': new Date(FAKE_NOW + ++responses * 1000).toUTCString() });
			case 'lying-304':
				return inm !== undefined ? notModified({ etag: strong }) : ok({ etag: strong });
			case 'ignores-conditionals':
				return ok({ etag: strong });
			case 'gzip-etag': {
				const accepted = String(req.headers['accept-encoding'] ?? '');
				const coding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : undefined;
				const bytes = coding === 'br' ? brotliCompressSync(body) : coding === 'gzip' ? gzipSync(body) : body;
				const etag = `"${createHash('sha1').update(bytes).digest('hex').slice(0, 20)}"`;
				return inm === etag ? notModified({ etag }) : ok({ etag, vary: 'Accept-Encoding', ...(coding ? { 'content-encoding': coding } : {}) }, bytes);
			}
			case 'head-405':
				if (req.method === 'HEAD') return void res.writeHead(405, { allow: 'GET' }).end();
				return inm === strong ? notModified({ etag: strong }) : ok({ etag: strong });
			case 'head-stale':
				if (req.method === 'HEAD') return inm !== undefined ? notModified({ etag: `"p${i}-v0"` }) : void res.writeHead(200, { etag: `"p${i}-v0"` }).end();
				return inm === strong ? notModified({ etag: strong }) : ok({ etag: strong });
			default:
				throw new Error(`unknown behaviour ${behaviour}`);
		}
	};
}

/**
 * Starts one behaviour's site. `counts` tallies requests, full GET bodies sent and 503s.
 *
 * @example
 * const site = await serveSite('strong-etag', 100); site.edit(3, 7); await site.close();
 */
export async function serveSite(behaviour, count) {
	const pages = Array.from({ length: count }, () => ({ version: 1, deleted: false }));
	const counts = { requests: 0, bodies: 0, busy: 0 };
	const server = http.createServer(handlerFor(behaviour, pages, counts));
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const urls = pages.map((_, i) => `${origin}${behaviour === 'moved' ? `/old/${i}` : `/p/${i}`}`);
	return {
		behaviour,
		origin,
		urls,
		counts,
		edit: (...indices) => indices.map((i) => (pages[i].version++, urls[i])),
		remove: (...indices) => indices.map((i) => ((pages[i].deleted = true), urls[i])),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
