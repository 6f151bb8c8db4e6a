import { describe, expect, it } from 'vitest';
import { chooseForm, formHeaders, stripCoding } from '../../../src/net/hosts/forms.js';

const both = { etag: '"2062-661b-gzip"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' };

describe('conditional forms', () => {
	it('strips a content-coding suffix inside the quotes, keeping W/', () => {
		expect(stripCoding('"2062-661b4e4b89b16-gzip"')).toBe('"2062-661b4e4b89b16"');
		expect(stripCoding('W/"abc--gzip"')).toBe('W/"abc"');
		expect(stripCoding('"abc;br"')).toBe('"abc"');
		expect(stripCoding('"abc"')).toBeUndefined();
		expect(stripCoding('"gzip"')).toBeUndefined();
	});

	it('gives each form its headers, and none where it says nothing new', () => {
		expect(formHeaders('both', both)).toEqual({ 'if-none-match': both.etag, 'if-modified-since': both.lastModified });
		expect(formHeaders('etag', both)).toEqual({ 'if-none-match': both.etag });
		expect(formHeaders('last-modified', both)).toEqual({ 'if-modified-since': both.lastModified });
		expect(formHeaders('etag-stripped', both)).toEqual({ 'if-none-match': '"2062-661b"' });
		expect(formHeaders('etag-stripped-both', both)).toEqual({ 'if-none-match': '"2062-661b"', 'if-modified-since': both.lastModified });
		expect(formHeaders('etag-stripped-both', { etag: both.etag })).toBeUndefined();
		// With one validator, "alone" is what `both` sends already.
		expect(formHeaders('etag', { etag: '"a"' })).toBeUndefined();
		expect(formHeaders('last-modified', { lastModified: both.lastModified })).toBeUndefined();
		expect(formHeaders('etag-stripped', { etag: '"a"' })).toBeUndefined();
		expect(formHeaders('both', {})).toBeUndefined();
	});

	it('chooses the first form that got 304s, and says what was ignored', () => {
		expect(chooseForm({ both: { tried: 1, hits: 1 } })).toEqual({ form: 'both', reason: 'conditionals honoured as sent' });
		expect(chooseForm({ both: { tried: 2, hits: 0 }, etag: { tried: 2, hits: 0 }, 'last-modified': { tried: 2, hits: 2 } })).toEqual({
			form: 'last-modified',
			reason: 'ETag conditionals ignored; If-Modified-Since alone gets 304s',
		});
		expect(chooseForm({ both: { tried: 1, hits: 0 }, 'etag-stripped': { tried: 1, hits: 1 } }).form).toBe('etag-stripped');
		// Several forms got 304s: the one that carries the most, the bare tag with If-Modified-Since, not If-Modified-Since alone.
		const several = chooseForm({
			both: { tried: 2, hits: 0 },
			'last-modified': { tried: 2, hits: 2 },
			'etag-stripped': { tried: 2, hits: 2 },
			'etag-stripped-both': { tried: 2, hits: 2 },
		});
		expect(several.form).toBe('etag-stripped-both');
		expect(several.reason).toContain('the most telling form');
		expect(chooseForm({ both: { tried: 2, hits: 0 } })).toEqual({ form: 'none', reason: 'no conditional form gets 304s (tried: the validators as sent)' });
	});
});
