// Origins that answer late: N plain node:http servers on 127.0.0.1 (one process, forked by
// bench/fleet-latency.js), each answering every request after DELAY ms with a small page
// and a strong ETag (304 when If-None-Match matches).
//
//   fork('bench/lib/latency-origins.js', ['100', '100'])   // 100 origins, 100 ms each
//
// Sends { type: 'ready', ports } once all listen; exits when the parent disconnects.
import http from 'node:http';

const origins = Number(process.argv[2] ?? 100);
const delay = Number(process.argv[3] ?? 100);
const handler = (req, res) => {
	const etag = `"${req.url}"`;
	setTimeout(() => {
		if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
		res.writeHead(200, { etag, 'content-type': 'text/html' }).end(`<html><body>${req.url}</body></html>\n`);
	}, delay);
};
const ports = await Promise.all(
	Array.from(
		{ length: origins },
		() =>
			new Promise((resolve) => {
				const server = http.createServer({ keepAliveTimeout: 60_000 }, handler);
				server.listen(0, '127.0.0.1', () => resolve(server.address().port));
			}),
	),
);
process.send?.({ type: 'ready', ports });
process.on('disconnect', () => process.exit(0));
