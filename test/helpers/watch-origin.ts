import type http from 'node:http';
import { startServer, type TestServer } from './server.js';

/** One request an origin saw: when it came and went (wall ms), its path and headers, and whether its answer was cut off. */
export interface OriginHit {
	at: number;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** When the answer was sent in full; undefined while in flight or when the client went away first. */
	ended?: number;
	aborted?: boolean;
}

export interface WatchOrigin {
	server: TestServer;
	url(path: string): string;
	hits: OriginHit[];
	/** Requests for pages in flight now, and the most there ever were at once. */
	readonly inFlight: number;
	readonly most: number;
	/** Makes a page's content (and its ETag) change. */
	change(path: string): void;
	close(): Promise<void>;
}

/**
 * An origin for watch tests: each page has a version (its body and its ETag), answers
 * If-None-Match with a 304, waits `delayMs` before answering, and records every request
 * with its time and headers and how many were in flight at once.
 *
 * @example
 * const origin = await startWatchOrigin(200);
 * origin.change('/p1'); // the next check of /p1 finds a change
 */
export async function startWatchOrigin(delayMs = 0): Promise<WatchOrigin> {
	const versions = new Map<string, number>();
	const hits: OriginHit[] = [];
	let inFlight = 0;
	let most = 0;
	const server = await startServer((req, res) => {
		const hit: OriginHit = { at: Date.now(), path: req.url ?? '', headers: req.headers };
		hits.push(hit);
		most = Math.max(most, ++inFlight);
		let open = true;
		const end = (): void => {
			if (open) inFlight--;
			open = false;
		};
		res.once('close', () => {
			if (!res.writableFinished) hit.aborted = true;
			end();
		});
		setTimeout(() => {
			if (!open) return;
			const tag = `"${versions.get(hit.path) ?? 0}"`;
			if (req.headers['if-none-match'] === tag) res.writeHead(304, { etag: tag });
			else res.writeHead(200, { etag: tag, 'content-type': 'text/plain' }).write(`${hit.path} version ${tag}`);
			hit.ended = Date.now();
			end();
			res.end();
		}, delayMs);
	});
	return {
		server,
		url: (path) => server.url(path),
		hits,
		get inFlight() {
			return inFlight;
		},
		get most() {
			return most;
		},
		change: (path) => versions.set(path, (versions.get(path) ?? 0) + 1),
		close: () => server.close(),
	};
}
