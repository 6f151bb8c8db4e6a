import http from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from '../interop/servers/launch.js';

/** A JSON receiver (a `json://` notify target) on a fixed port of 127.0.0.1 that can be down (nothing listening) and back. */
export interface OutageReceiver {
	host: string;
	port: number;
	/** The JSON bodies received, in arrival order. */
	received: Array<Record<string, unknown>>;
	/** Starts listening (answering 200) on the port. */
	up(): Promise<void>;
	/** Stops listening and drops its connections: the next connection is refused. */
	down(): Promise<void>;
}

/**
 * A receiver that starts down: its port is free, and connections to it are refused until `up()`.
 *
 * @example
 * const target = await outageReceiver();
 * // --notify json://127.0.0.1:${target.port}/hook fails …
 * await target.up(); // … and is delivered to now
 */
export async function outageReceiver(): Promise<OutageReceiver> {
	const port = await freePort();
	const received: Array<Record<string, unknown>> = [];
	let server: http.Server | undefined;
	const sockets = new Set<Socket>();
	return {
		host: '127.0.0.1',
		port,
		received,
		async up() {
			server = http.createServer((req, res) => {
				let text = '';
				req.on('data', (chunk: Buffer) => (text += chunk.toString()));
				req.on('end', () => {
					received.push(JSON.parse(text) as Record<string, unknown>);
					res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
				});
			});
			server.on('connection', (socket: Socket) => {
				sockets.add(socket);
				socket.once('close', () => sockets.delete(socket));
			});
			await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
		},
		async down() {
			if (!server) return;
			const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
			for (const socket of sockets) socket.destroy();
			await closing;
			server = undefined;
		},
	};
}
