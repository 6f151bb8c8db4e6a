import type http from 'node:http';
import { startServer, type TestServer } from '../../helpers/server.js';
import type { Message } from '../../../src/io/notify/index.js';

/** One request a receiver took, its body parsed when it was JSON. */
export interface Received {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: unknown;
}

/**
 * A real HTTP receiver on 127.0.0.1 keeping each request; `answer` picks the status and
 * JSON body (default 200 `{}`).
 *
 * @example
 * const { server, received } = await startReceiver();
 */
export async function startReceiver(
	answer: (request: Received) => [number, unknown?] = () => [200, {}],
): Promise<{ server: TestServer; received: Received[] }> {
	const received: Received[] = [];
	const server = await startServer((req, res) => {
		let text = '';
		req.on('data', (chunk: Buffer) => (text += chunk.toString()));
		req.on('end', () => {
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				// Not JSON: kept as text.
			}
			const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
			received.push(request);
			const [status, json] = answer(request);
			res.writeHead(status, { 'content-type': 'application/json' }).end(json === undefined ? '' : JSON.stringify(json));
		});
	});
	return { server, received };
}

/** A message as messageOf makes one. */
export const MESSAGE: Message = {
	title: 'Price changed: https://shop.example/kettle',
	body: 'https://shop.example/kettle\nreason: price\nprice 24.5 EUR → 21 EUR',
	url: 'https://shop.example/kettle',
	fields: { reason: 'price', product: { price: 21, currency: 'EUR' }, previous: { price: 24.5, currency: 'EUR' } },
};
