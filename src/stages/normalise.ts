import { map, type OperatorFunction } from 'rxjs';
import type { InputLine, Task } from '../domain/task/types.js';

/**
 * Parses a URL with the WHATWG parser and returns its normal form (lowercase scheme
 * and host, no default port, no fragment), or the reason it is not an absolute
 * http(s) URL.
 *
 * @example
 * normaliseUrl('HTTP://Example.ORG:80/a#top') // { url: 'http://example.org/a', origin: 'http://example.org' }
 */
export function normaliseUrl(text: string): { url: string; origin: string } | { problem: string } {
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return { problem: 'not an absolute URL' };
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return { problem: `scheme ${parsed.protocol.slice(0, -1)}: is not http or https` };
	}
	if (parsed.hostname === '') return { problem: 'URL has no host' };
	parsed.hash = '';
	return { url: parsed.href, origin: parsed.origin };
}

/** Why a line with whitespace inside is refused: the WHATWG parser would take `a b` as `a%20b`. */
export const INNER_WHITESPACE = 'whitespace inside the line (one URL per line; write a space in a URL as %20)';

/**
 * The URL an input line stands for, as the stage reads it: the line's own problem, else
 * its normal form, refusing a line with whitespace inside (`https://example.org/a extra
 * words` is junk, not one URL with `%20`s).
 *
 * @example
 * urlOfLine({ line: 1, text: 'https://example.org/a b' }) // { problem: INNER_WHITESPACE }
 */
export function urlOfLine(item: InputLine): { url: string; origin: string } | { problem: string } {
	if (item.problem) return { problem: item.problem };
	const result = normaliseUrl(item.text);
	// A line that is no URL at all is named as such; one the parser would take with its spaces is junk too.
	return 'url' in result && /\s/.test(item.text) ? { problem: INNER_WHITESPACE } : result;
}

/** Origins whose string the stage shares between tasks. */
const ORIGINS = 4096;

/**
 * Turns input lines into tasks: a normalised URL with its origin, or a task marked
 * `rejected` with the reason (`urlOfLine`), which later stages pass through untouched.
 *
 * @example
 * readLines(stdin, valve).pipe(normalise())
 */
export function normalise(): OperatorFunction<InputLine, Task> {
	// One string per origin rather than one per task: a task may wait long (a budget holds
	// its best candidates to the end of the input). Bounded: cleared when it grows past ORIGINS.
	const origins = new Map<string, string>();
	const shared = (origin: string): string => {
		const known = origins.get(origin);
		if (known !== undefined) return known;
		if (origins.size >= ORIGINS) origins.clear();
		origins.set(origin, origin);
		return origin;
	};
	return map((item): Task => {
		const task: Task = { line: item.line, input: item.text };
		// Where the line came from (a pipeline's source, a sitemap's lastmod) travels with it.
		if (item.source !== undefined) task.source = item.source;
		if (item.lastmod !== undefined) task.lastmod = item.lastmod;
		if (item.from !== undefined) task.from = item.from;
		const result = urlOfLine(item);
		if ('url' in result) {
			// The line itself when it was already in normal form, as most are: one string, not two.
			task.url = result.url === item.text ? item.text : result.url;
			task.origin = shared(result.origin);
		} else {
			task.skip = 'rejected';
			task.problem = result.problem;
		}
		return task;
	});
}
