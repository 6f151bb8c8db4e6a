import type { Request } from 'playwright-core';
import type { HandedAnswer } from './types.js';

/** What a page's own script asked for: only these are kept as data requests, and only these are handed an answer. */
export const SCRIPTED = new Set(['xhr', 'fetch']);
/** Fields that describe the bytes on the wire, not the decoded body handed over. */
const WIRE_ONLY = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * The answers the data requests of the page at `page` are to be handed, each once: the
 * page's first XHR or fetch GET of a URL takes its answer (a second, a poll say, goes out
 * as usual). Everything else is left to go out.
 *
 * Another origin's answer is handed only when it carries Access-Control-Allow-Origin, so
 * that Chromium judges it by CORS as it would the answer from the network: playwright
 * gives a fulfilled cross-origin answer without one a header that lets any page read it.
 *
 * @example
 * const hand = handedAnswers(options.handed, url);
 * const answer = hand(request); // { status, headers, body } for route.fulfill, or undefined
 */
export function handedAnswers(answers: ReadonlyMap<string, HandedAnswer> | undefined, page: string): (request: Request) => HandedAnswer | undefined {
	const left = new Map(answers ?? []);
	const own = new URL(page).origin;
	return (request) => {
		if (left.size === 0 || request.method() !== 'GET' || !SCRIPTED.has(request.resourceType())) return undefined;
		const url = request.url();
		const answer = left.get(url);
		if (answer === undefined) return undefined;
		if (new URL(url).origin !== own && answer.headers['access-control-allow-origin'] === undefined) return undefined;
		left.delete(url);
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(answer.headers)) if (!WIRE_ONLY.has(name)) headers[name] = value;
		return { status: answer.status, headers, body: answer.body };
	};
}
