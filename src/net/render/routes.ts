import type { Request, Route } from 'playwright-core';
import type { RenderOptions } from './types.js';

/** Never fetched for a render: nothing of them reaches the counted text. */
const BLOCKED = new Set(['image', 'font', 'media']);

/**
 * Sends a page's request (not its document) on, or not: images, fonts and media are
 * aborted, and so is a request `allow` refuses (robots.txt, a private address written as
 * such); the others go out with `headers` merged, through the browser's own network stack,
 * so that Chromium's CORS and Private Network Access checks hold, and through the guard
 * proxy (guard-proxy.ts), which checks every request again after DNS.
 *
 * A request to the page's own origin given headers (secret ones go nowhere else) is made
 * from here instead (route.fetch, through the same proxy) without following redirects:
 * the browser then follows a redirect itself, as a new request that gets the headers of
 * its own URL. Continued, the browser would carry them along a redirect to another
 * origin. A same-origin request has no CORS to skip.
 *
 * @example
 * await page.route('**\/*', (route, request) => sendOn(route, request, url, options));
 */
export async function sendOn(route: Route, request: Request, page: string, options: Pick<RenderOptions, 'allow' | 'headers'>): Promise<void> {
	if (BLOCKED.has(request.resourceType())) return route.abort('blockedbyclient');
	const url = request.url();
	if (options.allow && !(await options.allow(url))) return route.abort('blockedbyclient');
	const extra = lowerCased(options.headers?.(url));
	if (Object.keys(extra).length === 0) return route.continue();
	const headers = { ...request.headers(), ...extra };
	if (new URL(url).origin !== new URL(page).origin) return route.continue({ headers });
	const postData = request.postDataBuffer() ?? undefined;
	const response = await route.fetch({ url, method: request.method(), headers, maxRedirects: 0, ...(postData ? { postData } : {}) });
	return route.fulfill({ response });
}

/** `headers` with lower-case names, so that they replace the request's own (which playwright gives lower-cased). */
function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
	return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}
