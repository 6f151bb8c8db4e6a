import { jsonParts } from './noise-json.js';

/**
 * A JSON body by its Content-Type: `application/json`, or any `+json` type
 * (`application/ld+json`, `application/problem+json`).
 *
 * @example
 * isJsonType('application/vnd.api+json; charset=utf-8') // true
 */
export const isJsonType = (contentType: string | undefined): boolean => /[/+]json\b/i.test(contentType ?? '');

/**
 * Counted JSON (keys sorted, one value a line) as a reader diffs it: each value
 * pretty-printed, two spaces an indent, so that a word diff or a unified diff shows the
 * keys that changed on lines of their own. Text that is not JSON comes back as it is.
 *
 * @example
 * prettyJson('{"a":1,"b":[2]}') // '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}'
 */
export function prettyJson(text: string): string {
	const read = jsonParts(text);
	if (!read) return text;
	return read.parts.map((part) => JSON.stringify(part, null, 2) ?? 'null').join('\n');
}
