// A small local website for the revisit demo: a few hundred HTML pages kept in memory,
// served on 127.0.0.1 with an ephemeral port. Three kinds of page, a third each:
//
//   /etag/NNN.html     strong ETag (hash of the body); 304 when If-None-Match matches
//   /lastmod/NNN.html  Last-Modified only; 304 when If-Modified-Since is that exact string
//   /plain/NNN.html    no validators at all; always a full 200
//
// Used in-process by demo/demo.js (startSite() + site.edit()), or standalone:
//
//   node demo/site.js [--pages 300] [--port 0]
//
// which prints the site's URL and serves, besides the pages:
//   GET  /            an index of links
//   GET  /urls.txt    every page URL, one per line (pipe it into `revisit sweep`)
//   POST /_edit/PATH  edits one page (e.g. curl -X POST http://127.0.0.1:PORT/_edit/etag/007.html)

import { createHash } from 'node:crypto';
import http from 'node:http';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../bench/lib/prng.js';

export const KINDS = /** @type {const} */ (['etag', 'lastmod', 'plain']);

/** Human names for the kinds, for printing. */
export const KIND_LABEL = { etag: 'ETag', lastmod: 'Last-Modified', plain: 'no validators' };

// Last-Modified dates are fixed strings derived from the page number and its revision,
// never from the clock: an edit moves the date forward by whole days.
const EPOCH = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

const WORDS = (
	'cache validator request response origin header entity revision archive sweep crawler ' +
	'conditional modified content digest server client network latency bandwidth index page ' +
	'document resource transfer encoding status freshness stale update record store level ' +
	'hash body byte token strong weak match since date link anchor section article note'
).split(' ');


function sentence(random) {
	const n = 8 + Math.floor(random() * 12);
	const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]);
	const text = words.join(' ');
	return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function paragraph(random) {
	return Array.from({ length: 3 + Math.floor(random() * 4) }, () => sentence(random)).join(' ');
}

/** The HTML for one page at one revision: 1.5–7 KB, byte-identical for the same inputs. */
function renderPage(kind, number, revision) {
	const random = mulberry32(KINDS.indexOf(kind) * 100_003 + number);
	const paragraphs = 4 + Math.floor(random() * 10);
	const body = Array.from({ length: paragraphs }, () => `    <p>${paragraph(random)}</p>`);
	if (revision > 0) {
		const edit = mulberry32(number * 7919 + revision);
		body.splice(1, 0, `    <p class="update">Update ${revision}: ${paragraph(edit)}</p>`);
	}
	const title = `${KIND_LABEL[kind]} page ${number}`;
	return [
		'<!doctype html>',
		'<html lang="en">',
		'  <head>',
		'    <meta charset="utf-8">',
		`    <title>${title}</title>`,
		'  </head>',
		'  <body>',
		`    <h1>${title}</h1>`,
		`    <p class="meta">revision ${revision}</p>`,
		...body,
		'  </body>',
		'</html>',
		'',
	].join('\n');
}

function pagePath(kind, number) {
	return `/${kind}/${String(number).padStart(3, '0')}.html`;
}

/**
 * Starts the site. Resolves once it listens.
 *
 * @param {{ pages?: number, port?: number, host?: string }} [options]
 *   pages: total page count, split evenly over the three kinds (default 300)
 * @returns {Promise<Site>}
 *
 * @typedef {{ kind: 'etag' | 'lastmod' | 'plain', number: number, path: string, revision: number,
 *             body: Buffer, etag?: string, lastModified?: string }} Page
 * @typedef {{ origin: string, urls: string[], pages: Map<string, Page>,
 *             stats: { ok: number, notModified: number, bytesSent: number },
 *             url(path: string): string, edit(path: string): Page, close(): Promise<void> }} Site
 */
export async function startSite(options = {}) {
	const total = options.pages ?? 300;
	const perKind = Math.max(1, Math.floor(total / KINDS.length));
	/** @type {Map<string, Page>} */
	const pages = new Map();

	const build = (kind, number, revision) => {
		const body = Buffer.from(renderPage(kind, number, revision));
		/** @type {Page} */
		const page = { kind, number, path: pagePath(kind, number), revision, body };
		if (kind === 'etag') page.etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
		if (kind === 'lastmod') page.lastModified = new Date(EPOCH + number * 60_000 + revision * DAY).toUTCString();
		pages.set(page.path, page);
		return page;
	};
	for (const kind of KINDS) for (let n = 1; n <= perKind; n++) build(kind, n, 0);

	const stats = { ok: 0, notModified: 0, bytesSent: 0 };

	/** Changes a page's content and bumps its validator (new ETag, later Last-Modified). */
	const edit = (path) => {
		const page = pages.get(path);
		if (!page) throw new Error(`no such page: ${path}`);
		return build(page.kind, page.number, page.revision + 1);
	};

	const server = http.createServer((req, res) => {
		const path = new URL(req.url ?? '/', 'http://site').pathname;

		if (req.method === 'POST' && path.startsWith('/_edit/')) {
			const page = pages.get(path.slice('/_edit'.length));
			if (!page) return send(res, 404, 'text/plain', 'no such page\n');
			const edited = edit(page.path);
			const { body: _body, ...info } = edited;
			return send(res, 200, 'application/json', `${JSON.stringify({ ...info, bytes: edited.body.length })}\n`);
		}
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			res.setHeader('allow', 'GET, HEAD');
			return send(res, 405, 'text/plain', 'method not allowed\n');
		}
		if (path === '/urls.txt') return send(res, 200, 'text/plain', `${site.urls.join('\n')}\n`);
		if (path === '/') {
			const links = [...pages.values()].map((p) => `<li><a href="${p.path}">${p.path}</a></li>`).join('\n');
			return send(res, 200, 'text/html; charset=utf-8', `<!doctype html>\n<title>revisit demo site</title>\n<ul>\n${links}\n</ul>\n`);
		}

		const page = pages.get(path);
		if (!page) return send(res, 404, 'text/plain', 'not found\n');

		const validators = {};
		if (page.etag) validators.etag = page.etag;
		if (page.lastModified) validators['last-modified'] = page.lastModified;

		if (notModified(req, page)) {
			stats.notModified++;
			res.writeHead(304, validators).end();
			return;
		}
		stats.ok++;
		stats.bytesSent += page.body.length;
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.body.length, ...validators });
		res.end(req.method === 'HEAD' ? undefined : page.body);
	});

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
	});
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;

	/** @type {Site} */
	const site = {
		origin,
		urls: [...pages.keys()].map((p) => `${origin}${p}`),
		pages,
		stats,
		url: (p) => `${origin}${p}`,
		edit,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
	return site;
}

/**
 * RFC 9110 §13.2.2 order: If-None-Match (weak comparison, as for GET) decides when
 * present; otherwise If-Modified-Since, compared as the exact Last-Modified string.
 */
function notModified(req, page) {
	const inm = req.headers['if-none-match'];
	if (inm !== undefined) {
		if (!page.etag) return false;
		if (inm.trim() === '*') return true;
		const opaque = (tag) => tag.trim().replace(/^W\//, '');
		return inm.split(',').some((tag) => opaque(tag) === opaque(page.etag));
	}
	const ims = req.headers['if-modified-since'];
	return ims !== undefined && page.lastModified !== undefined && ims === page.lastModified;
}

function send(res, status, type, text) {
	res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
}

// Standalone: `node demo/site.js [--pages N] [--port N]`
const isMain = (() => {
	try {
		return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
	} catch {
		return false;
	}
})();

if (isMain) {
	const arg = (name, fallback) => {
		const i = process.argv.indexOf(`--${name}`);
		if (i === -1) return fallback;
		const value = Number(process.argv[i + 1]);
		if (!Number.isInteger(value) || value < 0) {
			console.error(`site.js: --${name} wants a whole number`);
			process.exit(2);
		}
		return value;
	};
	const site = await startSite({ pages: arg('pages', 300), port: arg('port', 0) });
	const counts = KINDS.map((kind) => `${[...site.pages.values()].filter((p) => p.kind === kind).length} ${KIND_LABEL[kind]}`);
	console.log(site.origin);
	console.error(`revisit demo site: ${site.pages.size} pages (${counts.join(', ')})`);
	console.error(`  URL list:  curl -s ${site.origin}/urls.txt | node bin/revisit.js sweep`);
	console.error(`  edit page: curl -X POST ${site.origin}/_edit/etag/001.html`);
	console.error('  Ctrl-C to stop');
	const stop = () => void site.close().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}
