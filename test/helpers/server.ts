import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** Raw header pairs as they crossed the wire, for byte-for-byte assertions. */
	rawHeaders: string[];
}

export interface TestServer {
	/** `http://127.0.0.1:PORT` */
	origin: string;
	url(path: string): string;
	/** Every request the server saw, in arrival order. */
	requests: SeenRequest[];
	/** Requests for one path. */
	seen(path: string): SeenRequest[];
	close(): Promise<void>;
}

/**
 * Starts a real HTTP server on 127.0.0.1 with an ephemeral port, recording each request.
 *
 * @example
 * const server = await startServer((req, res) => res.end('hi'));
 * try { ... server.url('/a') ... } finally { await server.close(); }
 */
export async function startServer(handler: http.RequestListener): Promise<TestServer> {
	const requests: SeenRequest[] = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders });
		handler(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const origin = `http://127.0.0.1:${port}`;
	return {
		origin,
		url: (path) => `${origin}${path}`,
		requests,
		seen: (path) => requests.filter((request) => request.path === path),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/**
 * An origin that answers each request after `delayMs` (a 200 with a fixed ETag) and
 * counts requests in flight at once: `seen.most` is what a politeness limit must bound.
 *
 * @example
 * const { server, seen } = await slowOrigin(20);
 * // ... a sweep with --per-host 2 ...
 * expect(seen.most).toBe(2);
 */
export async function slowOrigin(
	delayMs: number,
	onRequest: (path: string) => void = () => {},
): Promise<{ server: TestServer; seen: { inFlight: number; most: number } }> {
	const seen = { inFlight: 0, most: 0 };
	const server = await startServer((req, res) => {
		seen.most = Math.max(seen.most, ++seen.inFlight);
		onRequest(req.url!);
		setTimeout(() => {
			seen.inFlight--;
			res.writeHead(200, { etag: '"1"' }).end(req.url);
		}, delayMs);
	});
	return { server, seen };
}
