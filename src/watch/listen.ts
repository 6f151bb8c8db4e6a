import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenValue, type ListenAddress } from '../config/values.js';
import { UsageError } from '../errors/index.js';
import { loadReport, type ReportScope } from '../history/report-data.js';
import { renderReport } from '../history/report-html.js';
import type { ValidatorStore } from '../store/types.js';
import type { WatchMetrics } from './metrics.js';

/** Where the server listens. An empty host is every interface (`:9464`). */
export type { ListenAddress } from '../config/values.js';

/** Whether the watch is well: `reason` is one line saying why not. */
export interface Health {
	ok: boolean;
	reason?: string | undefined;
}

/** What the server answers from. */
export interface ListenHandlers {
	metrics: Pick<WatchMetrics, 'text' | 'contentType'>;
	/** Asked on each `GET /healthz`; a throw counts as unwell, its message the reason. */
	health(): Health | Promise<Health>;
	/** `GET /` reads the report page from this store on each request: the runs `scope` gives (the last run by default), `source` naming the store on the page. */
	report: { store: ValidatorStore; source: string; scope?: () => ReportScope };
}

export interface Listening {
	/** Where it listens, with the port the system chose for port 0. */
	address: ListenAddress;
	/** Stops listening; resolves once the requests under way are answered. */
	close(): Promise<void>;
}

/**
 * `--listen HOST:PORT`: `127.0.0.1:9464`, `:9464` (every interface), `[::1]:9464`, or a
 * host name. Port 0 asks the system for a free one.
 *
 * @example
 * parseListen('[::1]:9464') // { host: '::1', port: 9464 }
 */
export function parseListen(text: string): ListenAddress {
	// The check lives with the settings', so that a pipeline file's watch.listen is checked by it too.
	return listenValue('listen')(text);
}

const TEXT = 'text/plain; charset=utf-8';

/** One line: a reason with a newline in it would read as two in a probe's log. */
const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

async function answer(handlers: ListenHandlers, path: string): Promise<{ status: number; type: string; body: string }> {
	switch (path) {
		case '/metrics':
			return { status: 200, type: handlers.metrics.contentType, body: await handlers.metrics.text() };
		case '/healthz': {
			let health: Health;
			try {
				health = await handlers.health();
			} catch (error) {
				health = { ok: false, reason: (error as Error).message };
			}
			return health.ok ? { status: 200, type: TEXT, body: 'ok\n' } : { status: 503, type: TEXT, body: `${oneLine(health.reason ?? 'unwell') || 'unwell'}\n` };
		}
		case '/': {
			const { store, source, scope } = handlers.report;
			return { status: 200, type: 'text/html; charset=utf-8', body: renderReport(await loadReport(store, scope?.() ?? {}, source)) };
		}
		default:
			return { status: 404, type: TEXT, body: 'not found: /metrics, /healthz and / are served\n' };
	}
}

/**
 * Serves the watch over HTTP (node:http): `GET /metrics` (Prometheus's text format),
 * `GET /healthz` (200 `ok`, or 503 with the reason) and `GET /` (the report page of the
 * latest runs, as `revisit report` writes it, read from the store on each request).
 * HEAD too; any other method is 405. Fails with a UsageError naming `--listen` when the
 * address cannot be listened on.
 *
 * @example
 * const server = await listen(parseListen('127.0.0.1:9464'), { metrics, health: () => ({ ok: true }), report: { store, source: '.revisit' } });
 * await server.close();
 */
export async function listen(where: ListenAddress, handlers: ListenHandlers): Promise<Listening> {
	const server = http.createServer((request, response) => {
		response.setHeader('cache-control', 'no-store');
		response.setHeader('x-content-type-options', 'nosniff');
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			response.writeHead(405, { allow: 'GET, HEAD', 'content-type': TEXT }).end('only GET and HEAD\n');
			return;
		}
		const path = new URL(request.url ?? '/', 'http://localhost').pathname;
		answer(handlers, path).then(
			({ status, type, body }) => {
				response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
				response.end(request.method === 'HEAD' ? undefined : body);
			},
			(error: unknown) => {
				// The store failing mid-read is the page's problem, not the watch's: answer and go on.
				if (response.headersSent) return void response.destroy();
				response.writeHead(500, { 'content-type': TEXT }).end(`${oneLine((error as Error).message ?? String(error))}\n`);
			},
		);
	});
	await new Promise<void>((resolve, reject) => {
		const failed = (error: NodeJS.ErrnoException): void => {
			const shown = where.host.includes(':') ? `[${where.host}]:${where.port}` : `${where.host}:${where.port}`;
			reject(new UsageError(`--listen ${shown}: cannot listen there (${error.code ?? error.message})`, { cause: error, help: false }));
		};
		server.once('error', failed);
		server.listen({ host: where.host === '' ? undefined : where.host, port: where.port }, () => {
			server.off('error', failed);
			resolve();
		});
	});
	const bound = server.address() as AddressInfo;
	return {
		address: { host: bound.address, port: bound.port },
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeIdleConnections();
			}),
	};
}
