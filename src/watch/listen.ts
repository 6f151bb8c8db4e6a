import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenValue, type ListenAddress } from '../config/values.js';
import { UsageError } from '../base/errors/index.js';
import { hostCheck, type MachineNames } from './host-check.js';
import { liveReport, type Answer, type LiveReportOptions } from './live-report.js';
import { visibleLine } from '../base/util/visible.js';
import type { WatchMetrics } from './metrics.js';

/** Where the server listens. An empty host is every interface (`:9464`). */
export type { ListenAddress } from '../config/values.js';

/** Whether the watch is well: `reason` is one line saying why not; `degraded`, why it is well but behind (deliveries waiting for a target). */
export interface Health {
	ok: boolean;
	reason?: string | undefined;
	degraded?: string | undefined;
}

/** What the server answers from. */
export interface ListenHandlers {
	metrics: Pick<WatchMetrics, 'text' | 'contentType'> & Partial<Pick<WatchMetrics, 'reportBuilt'>>;
	/** Asked on each `GET /healthz`; a throw counts as unwell, its message the reason. */
	health(): Health | Promise<Health>;
	/**
	 * `GET /` shows the report page of the last `runs` runs from this store, `source` naming it,
	 * in pages of `limit` changes, each built at most once per `maxAgeMs` (live-report.ts).
	 */
	report: LiveReportOptions;
	/** More names answered in the Host header (`--listen-host`), beside the listening address's. */
	hosts?: readonly string[] | undefined;
	/** This machine's addresses and name, for a server on every interface (default: the system's). */
	machine?: (() => MachineNames) | undefined;
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

/**
 * One line: a reason with a newline in it would read as two in a probe's log; a control
 * character a page wrote is shown, not sent to whoever reads it on a terminal.
 */
const oneLine = (text: string): string => visibleLine(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());

const text = (status: number, body: string): Answer => ({ status, type: TEXT, body: Buffer.from(body) });

async function answer(handlers: ListenHandlers, report: ReturnType<typeof liveReport>, url: URL): Promise<Answer> {
	switch (url.pathname) {
		case '/metrics':
			return { status: 200, type: handlers.metrics.contentType, body: Buffer.from(await handlers.metrics.text()) };
		case '/healthz': {
			let health: Health;
			try {
				health = await handlers.health();
			} catch (error) {
				health = { ok: false, reason: (error as Error).message };
			}
			// Degraded is still 200: a restart would not bring a target back, and the checks go on.
			if (health.ok) return text(200, health.degraded ? `degraded: ${oneLine(health.degraded)}\n` : 'ok\n');
			return text(503, `${oneLine(health.reason ?? 'unwell') || 'unwell'}\n`);
		}
		case '/':
			return report.answer(url.searchParams);
		case '/url':
			return report.answerUrl(url.searchParams);
		default:
			return text(404, 'not found: /metrics, /healthz, / and /url?u=URL are served\n');
	}
}

/**
 * Serves the watch over HTTP (node:http): `GET /metrics` (Prometheus's text format),
 * `GET /healthz` (200 `ok`, or 503 with the reason), `GET /` (the report page of the
 * latest runs, as `revisit report` writes it, in pages, each built at most every few
 * seconds) and `GET /url?u=URL` (a URL's page: its timeline and versions). HEAD too;
 * any other method is 405. Only requests whose Host header names this server are
 * answered (host-check.ts); the others get 421 with one line saying which names are.
 * Fails with a UsageError naming `--listen` when the address cannot be listened on.
 *
 * @example
 * const server = await listen(parseListen('127.0.0.1:9464'), { metrics, health: () => ({ ok: true }), report: { store, source: '.revisit' } });
 * await server.close();
 */
export async function listen(where: ListenAddress, handlers: ListenHandlers): Promise<Listening> {
	const report = liveReport({ ...handlers.report, onBuild: handlers.metrics.reportBuilt });
	let hosts: ReturnType<typeof hostCheck> | undefined;
	const server = http.createServer((request, response) => {
		response.setHeader('cache-control', 'no-store');
		response.setHeader('x-content-type-options', 'nosniff');
		if (!hosts?.allows(request.headers.host)) {
			response.writeHead(421, { 'content-type': TEXT }).end(`${hosts?.refusal ?? 'not listening yet'}\n`);
			return;
		}
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			response.writeHead(405, { allow: 'GET, HEAD', 'content-type': TEXT }).end('only GET and HEAD\n');
			return;
		}
		answer(handlers, report, new URL(request.url ?? '/', 'http://localhost')).then(
			({ status, type, body }) => {
				response.writeHead(status, { 'content-type': type, 'content-length': body.length });
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
	hosts = hostCheck(where, { host: bound.address, port: bound.port }, handlers.hosts ?? [], handlers.machine);
	return {
		address: { host: bound.address, port: bound.port },
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeIdleConnections();
			}),
	};
}
