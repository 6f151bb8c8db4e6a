// Benchmark origin: a plain node:http server on 127.0.0.1 (ephemeral port), meant to run
// in its own child process (forked by bench/run.js) so that its CPU time is not taken from
// the event loop of the client being measured.
//
// It serves GET /p/<n> for 0 <= n < pages: a ~4 KB HTML page generated on the fly from
// the path (nothing is stored per page, so 200,000 pages cost no memory), with a strong
// ETag ("p<n>-v1") and a 304 with no body when If-None-Match matches. Anything else is 404.
// Bodies are sent uncompressed whatever Accept-Encoding says, to revisit and got alike.
//
// Protocol with the parent (IPC): sends { type: 'ready', port } once listening; answers
// { type: 'stats' } with request counters and its own CPU usage; exits when the parent
// disconnects or sends { type: 'close' }.
import http from 'node:http';

const pages = Number(process.argv[2] ?? 20_000);
if (!Number.isInteger(pages) || pages < 1) throw new TypeError(`origin: bad page count ${process.argv[2]}`);

// Deterministic filler, the same for every page; the per-page head makes bodies distinct.
const FILLER = Buffer.from(
	Array.from({ length: 48 }, (_, i) => `<p>Paragraph ${i}: the quick brown fox jumps over the lazy dog, again and again.</p>\n`).join('') + '</body></html>\n',
);

const head = (n) => Buffer.from(`<!doctype html>\n<html><head><title>Page ${n}</title></head><body>\n<h1>Page ${n}</h1>\n`);
const stats = { requests: 0, ok: 0, notModified: 0, notFound: 0, bytes: 0 };
const PATH = /^\/p\/(\d{1,9})$/;

const server = http.createServer((req, res) => {
	stats.requests++;
	const match = req.method === 'GET' || req.method === 'HEAD' ? PATH.exec(req.url ?? '') : null;
	const n = match ? Number(match[1]) : -1;
	if (n < 0 || n >= pages) {
		stats.notFound++;
		res.writeHead(404, { 'content-length': '0' });
		res.end();
		return;
	}
	const etag = `"p${n}-v1"`;
	const ifNoneMatch = req.headers['if-none-match'];
	if (ifNoneMatch !== undefined && (ifNoneMatch === etag || ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*'))) {
		stats.notModified++;
		res.writeHead(304, { etag, 'cache-control': 'no-cache' });
		res.end();
		return;
	}
	const top = head(n);
	const length = top.length + FILLER.length;
	stats.ok++;
	stats.bytes += length;
	res.writeHead(200, {
		'content-type': 'text/html; charset=utf-8',
		'content-length': String(length),
		etag,
		'cache-control': 'no-cache',
	});
	res.end(Buffer.concat([top, FILLER], length));
});
// Idle keep-alive connections stay open across a whole pass.
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;

server.listen(0, '127.0.0.1', () => {
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	process.send?.({ type: 'ready', port, pages, pageBytes: head(12_345).length + FILLER.length });
});

const close = () => {
	server.closeAllConnections();
	server.close(() => process.exit(0));
	setTimeout(() => process.exit(0), 2000).unref();
};

process.on('message', (message) => {
	if (message?.type === 'stats') {
		const cpu = process.cpuUsage();
		process.send?.({ type: 'stats', ...stats, cpuMs: (cpu.user + cpu.system) / 1000 });
	} else if (message?.type === 'close') {
		close();
	}
});
process.on('disconnect', close);
