// The servers of bench/watch-outbox.js: origins whose pages change at every request, the
// JSON receivers that come back after the outage, and an SMTP server that never speaks.
import http from 'node:http';
import net from 'node:net';

/**
 * Listens on 127.0.0.1 (an ephemeral port unless given) and resolves with the port.
 *
 * @example
 * const port = await listenOn(http.createServer(handler));
 */
export const listenOn = (server, port = 0) => new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server.address().port)));

/**
 * A port nothing listens on now (a target that is down until something listens there).
 *
 * @example
 * const port = await freePort();
 */
export async function freePort() {
	const server = net.createServer();
	const port = await listenOn(server);
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/**
 * Origins for one watch: each serves /N as a new body at every request (no validators, so
 * no check is conditional and none answers 304), and /robots.txt as 404 (allow all under
 * the default --robots obey). `seen` is the time of every request, robots.txt included.
 *
 * @example
 * const a = await changingOrigins(2); a.urls(4) // ['http://127.0.0.1:P1/0', 'http://127.0.0.1:P2/1', …]
 */
export async function changingOrigins(count) {
	const seen = [];
	let robots = 0;
	let served = 0;
	const servers = Array.from({ length: count }, () =>
		http.createServer((req, res) => {
			seen.push(Date.now());
			if (req.url === '/robots.txt') {
				robots++;
				res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
				return;
			}
			res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.url} version ${++served}\n`);
		}),
	);
	const ports = [];
	for (const server of servers) ports.push(await listenOn(server));
	return {
		seen,
		robots: () => robots,
		// Page i on origin i mod count: each origin gets an even share of the URLs, interleaved.
		urls: (pages) => Array.from({ length: pages }, (_, i) => `http://127.0.0.1:${ports[i % count]}/${i}`),
		close: () => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))),
	};
}

/**
 * A JSON receiver (json:// or a webhook) that keeps what it is sent, with when.
 *
 * @example
 * const into = []; await listenOn(receiver(into), port);
 */
export const receiver = (into) =>
	http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			into.push({ at: Date.now(), body: JSON.parse(text) });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});

/**
 * An SMTP server that accepts connections and never says a word.
 *
 * @example
 * const silent = await silentServer(); silent.port; silent.close();
 */
export async function silentServer() {
	const sockets = new Set();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => {});
	});
	const port = await listenOn(server);
	return {
		port,
		close() {
			server.close();
			for (const socket of sockets) socket.destroy();
		},
	};
}
