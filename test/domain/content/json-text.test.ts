import { describe, expect, it } from 'vitest';
import { isJsonType, prettyJson } from '../../../src/domain/content/json-text.js';

describe('json-text', () => {
	it('knows JSON by application/json or a +json type', () => {
		expect(isJsonType('application/json; charset=utf-8')).toBe(true);
		expect(isJsonType('application/ld+json')).toBe(true);
		expect(isJsonType('text/html')).toBe(false);
		expect(isJsonType(undefined)).toBe(false);
	});

	it('pretty-prints counted JSON, one value of several a line each, and leaves text that is not JSON alone', () => {
		expect(prettyJson('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
		expect(prettyJson('{"a":1}\n[2]')).toBe('{\n  "a": 1\n}\n[\n  2\n]');
		expect(prettyJson('not json')).toBe('not json');
	});
});
