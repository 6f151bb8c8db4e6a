import type { RobotsCopy } from '../../store/model/types.js';
import type { RobotsGateDeps, RobotsGateOptions } from './gate.js';
import { parseableBytes } from './parse.js';

/** A copy is used without asking again for at most this long (less by Cache-Control). */
export const ROBOTS_FRESH_MS = 24 * 3_600_000;

/** What one robots.txt request got: its status and text, or the network error's code. */
export interface Fetched {
	status?: number | undefined;
	text?: string | undefined;
	etag?: string | undefined;
	lastModified?: string | undefined;
	freshMs: number;
	error?: string | undefined;
	startedAt?: number | undefined;
}

/**
 * GET /robots.txt through the run's limiter (it is a request to the origin like any
 * other), conditional on the stored copy's validators, following up to five redirects.
 * A network error or timeout is an answer too: its code, in `error`.
 *
 * @example
 * (await fetchRobots(deps, options, 'http://127.0.0.1:1', undefined)).error // 'ECONNREFUSED'
 */
export async function fetchRobots(
	deps: RobotsGateDeps,
	options: RobotsGateOptions,
	origin: string,
	stored: RobotsCopy | undefined,
	signal?: AbortSignal,
): Promise<Fetched> {
	const headers: Record<string, string> = {};
	// Only a 2xx copy is revalidated: a 4xx has nothing to keep.
	if (stored && stored.status >= 200 && stored.status < 300) {
		if (stored.etag !== undefined) headers['if-none-match'] = stored.etag;
		if (stored.lastModified !== undefined) headers['if-modified-since'] = stored.lastModified;
	}
	let startedAt: number | undefined;
	try {
		const response = await deps.limiter.run(
			origin,
			() => {
				startedAt = deps.clock.now();
				return deps.http.get(`${origin}/robots.txt`, {
					headers,
					decompress: true,
					followRedirect: true,
					maxRedirects: 5,
					timeout: { request: options.timeoutMs },
					...(signal ? { signal } : {}),
				});
			},
			signal,
		);
		const body = response.body as unknown as Buffer;
		const header = (name: string): string | undefined => {
			const value = response.headers[name];
			return typeof value === 'string' ? value : undefined;
		};
		return {
			status: response.statusCode,
			text: parseableText(body),
			etag: header('etag'),
			lastModified: header('last-modified'),
			freshMs: freshness(header('cache-control')),
			startedAt,
		};
	} catch (error) {
		if (signal?.aborted) throw error;
		const code = (error as { code?: string }).code ?? (error instanceof Error ? error.name : 'ERROR');
		return { error: code, freshMs: ROBOTS_FRESH_MS, startedAt };
	}
}

/**
 * The body as the text kept and parsed: cut at the parse limit (whole lines only), and
 * without a byte order mark (whole or cut short) at its start, which decoding would
 * otherwise turn into a U+FFFD that spoils the first line.
 */
function parseableText(body: Buffer | undefined): string {
	return body ? parseableBytes(body).toString('utf8') : '';
}

/**
 * How long a copy may be used: 24 h, or less when Cache-Control says so (`max-age`,
 * `s-maxage`, `no-cache` and `no-store` mean 0 below that).
 *
 * @example
 * freshness('max-age=600') // 600_000
 */
export function freshness(cacheControl: string | undefined): number {
	if (cacheControl === undefined) return ROBOTS_FRESH_MS;
	const directives = cacheControl
		.toLowerCase()
		.split(',')
		.map((part) => part.trim());
	if (directives.some((directive) => directive === 'no-cache' || directive === 'no-store')) return 0;
	const age = directives.map((directive) => /^max-age\s*=\s*"?(\d+)"?$/.exec(directive)?.[1]).find((value) => value !== undefined);
	return age === undefined ? ROBOTS_FRESH_MS : Math.min(ROBOTS_FRESH_MS, Number(age) * 1000);
}
