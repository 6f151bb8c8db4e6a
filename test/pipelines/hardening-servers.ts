import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One request a raw server read: its path and header lines, as they arrived. */
export interface RawRequest {
	method: string;
	path: string;
	/** Header names lowercased; a repeated header keeps its last value. */
	headers: Record<string, string>;
}

/** What a raw server does with one request: write anything (or nothing) to the socket. */
export type Behaviour = (socket: net.Socket, request: RawRequest) => void;

export interface RawServer {
	/** `http://127.0.0.1:PORT` */
	origin: string;
	url(path: string): string;
	requests: RawRequest[];
	seen(path: string): RawRequest[];
	/** What `path` does from now on; unknown paths get a 404. */
	on(path: string, behaviour: Behaviour): void;
	close(): Promise<void>;
}

/**
 * A TCP server on 127.0.0.1 that speaks just enough HTTP/1.1 to misbehave on purpose:
 * it reads one request head per connection and hands the raw socket to the path's
 * behaviour, which may reset it, stall, or write bytes no HTTP library would produce.
 * Request bodies are never expected (revisit sends GET and HEAD).
 */
export async function startRawServer(): Promise<RawServer> {
	const requests: RawRequest[] = [];
	const behaviours = new Map<string, Behaviour>();
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => {});
		let head = Buffer.alloc(0);
		const onData = (chunk: Buffer): void => {
			head = Buffer.concat([head, chunk]);
			const end = head.indexOf('\r\n\r\n');
			if (end === -1) return;
			socket.off('data', onData);
			const [requestLine = '', ...lines] = head.subarray(0, end).toString('latin1').split('\r\n');
			const [method = '', path = ''] = requestLine.split(' ');
			const headers: Record<string, string> = {};
			for (const line of lines) {
				const colon = line.indexOf(':');
				if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
			}
			const request = { method, path, headers };
			requests.push(request);
			(behaviours.get(path) ?? notFound)(socket, request);
		};
		socket.on('data', onData);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		url: (path) => `${origin}${path}`,
		requests,
		seen: (path) => requests.filter((request) => request.path === path),
		on: (path, behaviour) => void behaviours.set(path, behaviour),
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

const notFound: Behaviour = (socket) => socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');

/**
 * A complete response, then the connection closed. `headers` are written byte for byte
 * (latin1), so a test can put anything in them; content-length is added.
 */
export function respond(socket: net.Socket, status: string, headers: string[], body: Buffer | string = ''): void {
	const bytes = typeof body === 'string' ? Buffer.from(body) : body;
	const head = [`HTTP/1.1 ${status}`, ...headers, `content-length: ${bytes.length}`, 'connection: close', '', ''].join('\r\n');
	socket.end(Buffer.concat([Buffer.from(head, 'latin1'), bytes]));
}

/** A 200 with a strong ETag, always the full body (the verdict is then `same-hash` or `new-body`). */
export const page =
	(body: string, etag?: string): Behaviour =>
	(socket) =>
		respond(socket, '200 OK', etag ? [`etag: ${etag}`] : [], body);

/**
 * Raw servers closed after each test.
 *
 * @example
 * const raw = useRawServers();
 * it('...', async () => { const server = await raw.start(); server.on('/a', page('hi')); ... });
 */
export function useRawServers(): { start(): Promise<RawServer> } {
	const started: RawServer[] = [];
	afterEach(async () => {
		await Promise.all(started.splice(0).map((server) => server.close()));
	});
	return {
		async start() {
			const server = await startRawServer();
			started.push(server);
			return server;
		},
	};
}
