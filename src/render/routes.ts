import type { Request, Route } from 'playwright-core';
import type { RenderOptions } from './types.js';

/** Never fetched for a render: nothing of them reaches the counted text. */
const BLOCKED = new Set(['image', 'font', 'media']);
/** Redirects followed for one request before it is given up. */
const MAX_HOPS = 10;

/**
 * Sends a page's request (not its document) on, or not: images, fonts and media are
 * aborted, and so is a request `allow` refuses; the others go out with `headers` merged.
 *
 * Under `allow`, or with a cookie to send, the request is made from here (route.fetch)
 * and its redirects followed one by one, each target asked of `allow`: the browser
 * follows a continued request's redirects without showing them to the routes, and
 * ignores a Cookie header given to continue(). The page then sees the last answer as
 * the answer to the URL it asked for.
 *
 * @example
 * await page.route('**\/*', (route, request) => sendOn(route, request, options));
 */
export async function sendOn(route: Route, request: Request, options: Pick<RenderOptions, 'allow' | 'headers'>): Promise<void> {
	if (BLOCKED.has(request.resourceType())) return route.abort('blockedbyclient');
	let url = request.url();
	if (options.allow && !(await options.allow(url))) return route.abort('blockedbyclient');
	const extra = lowerCased(options.headers?.(url));
	if (!options.allow && !('cookie' in extra)) return route.continue(Object.keys(extra).length > 0 ? { headers: { ...request.headers(), ...extra } } : undefined);
	let method = request.method();
	let postData = request.postDataBuffer() ?? undefined;
	let headers = { ...request.headers(), ...extra };
	for (let hop = 0; hop <= MAX_HOPS; hop++) {
		const response = await route.fetch({ url, method, headers, maxRedirects: 0, ...(postData ? { postData } : {}) });
		const location = response.headers()['location'];
		const status = response.status();
		if (status < 300 || status > 399 || status === 304 || !location) return route.fulfill({ response });
		url = new URL(location, url).href;
		if (options.allow && !(await options.allow(url))) return route.abort('blockedbyclient');
		// As browsers do: a 303, and a 301 or 302 to a POST, go on as a GET without a body.
		if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
			method = 'GET';
			postData = undefined;
		}
		headers = { ...request.headers(), ...lowerCased(options.headers?.(url)) };
	}
	return route.abort('failed');
}

/** `headers` with lower-case names, so that they replace the request's own (which playwright gives lower-cased). */
function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
	return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}
