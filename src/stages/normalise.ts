import { map, type OperatorFunction } from 'rxjs';
import type { Task } from '../types.js';
import type { InputLine } from './read-lines.js';

/**
 * Parses a URL with the WHATWG parser and returns its normal form (lowercase scheme
 * and host, no default port, no fragment), or the reason it is not an absolute
 * http(s) URL.
 *
 * @example
 * normaliseUrl('HTTP://Example.ORG:80/a#top') // { url: 'http://example.org/a' }
 */
export function normaliseUrl(text: string): { url: string } | { problem: string } {
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
	return { url: parsed.href };
}

/**
 * Turns input lines into tasks: a normalised URL, or a task marked `rejected` with the
 * reason, which later stages pass through untouched.
 *
 * @example
 * readLines(stdin, valve).pipe(normalise())
 */
export function normalise(): OperatorFunction<InputLine, Task> {
	return map(({ line, text, problem, ...carried }): Task => {
		// Where the line came from (a pipeline's source, a sitemap's lastmod) travels with it.
		const base = { line, input: text, ...carried };
		if (problem) return { ...base, skip: 'rejected', problem };
		const result = normaliseUrl(text);
		return 'url' in result ? { ...base, url: result.url } : { ...base, skip: 'rejected', problem: result.problem };
	});
}
