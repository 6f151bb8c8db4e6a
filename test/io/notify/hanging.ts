import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';

/** A server that holds its clients for as long as they stay: what a delivery deadline must end. */
export interface HangingServer {
	host: string;
	port: number;
	/** Resolves when the first client has got as far as the server lets it (an EHLO sent; a request's headers read). */
	reached: Promise<void>;
	/** Resolves when that client has gone (closed or reset its connection). */
	left: Promise<void>;
	/** Clients that connected so far. */
	clients(): number;
	close(): Promise<void>;
}

const tracked = (server: net.Server | http.Server) => {
	const sockets = new Set<Socket>();
	let count = 0;
	let leave: () => void;
	const left = new Promise<void>((resolve) => (leave = resolve));
	server.on('connection', (socket: Socket) => {
		count++;
		sockets.add(socket);
		socket.on('error', () => {});
		socket.once('close', () => {
			sockets.delete(socket);
			leave();
		});
	});
	const close = () =>
		new Promise<void>((resolve) => {
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
	return { left, clients: () => count, close };
};

const listen = async (server: net.Server | http.Server): Promise<number> => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
};

/**
 * An SMTP server on 127.0.0.1 that greets, then answers EHLO with `250-` continuation
 * lines, one every 500 ms, and never the last line: each byte resets a socket timeout,
 * so only a deadline on the whole exchange ends it.
 *
 * @example
 * const drip = await startDripSmtp();
 * await notifier(`mailto://127.0.0.1:${drip.port}?to=me@example.org`, { timeoutMs: 2000 }).send(MESSAGE); // rejects
 */
export async function startDripSmtp(): Promise<HangingServer> {
	let reach: () => void;
	const reached = new Promise<void>((resolve) => (reach = resolve));
	const server = net.createServer((socket) => {
		socket.write('220 drip.example ESMTP\r\n');
		let timer: NodeJS.Timeout | undefined;
		socket.on('data', (chunk: Buffer) => {
			if (timer || !/^(EHLO|HELO)/im.test(chunk.toString())) return;
			reach();
			timer = setInterval(() => socket.write('250-drip.example says hello, and more\r\n'), 500);
		});
		socket.once('close', () => clearInterval(timer));
	});
	const { left, clients, close } = tracked(server);
	return { host: '127.0.0.1', port: await listen(server), reached, left, clients, close };
}

/**
 * An HTTP server on 127.0.0.1 that reads each request and never answers it (`release()`
 * answers those held, and later ones, with 200 `{}`).
 *
 * @example
 * const hang = await startHangingHttp();
 * await notifier(`json://127.0.0.1:${hang.port}/hook`, { timeoutMs: 2000 }).send(MESSAGE); // rejects
 */
export async function startHangingHttp(): Promise<HangingServer & { release(): void }> {
	let reach: () => void;
	const reached = new Promise<void>((resolve) => (reach = resolve));
	const held: http.ServerResponse[] = [];
	let released = false;
	const answer = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			reach();
			if (released) answer(res);
			else held.push(res);
		});
	});
	const { left, clients, close } = tracked(server);
	const release = () => {
		released = true;
		for (const res of held.splice(0)) answer(res);
	};
	return { host: '127.0.0.1', port: await listen(server), reached, left, clients, close, release };
}
