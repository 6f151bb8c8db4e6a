import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base32, warcDigest } from '../../../src/outputs/warc/digest.js';

describe('warcDigest', () => {
	it('is sha1 in RFC 4648 base32, as CDX indexers write it', () => {
		// RFC 4648 section 10 test vectors.
		expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((text) => base32(Buffer.from(text)))).toEqual([
			'',
			'MY======',
			'MZXQ====',
			'MZXW6===',
			'MZXW6YQ=',
			'MZXW6YTB',
			'MZXW6YTBOI======',
		]);
		expect(warcDigest(Buffer.from(''))).toBe('sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ');
		expect(warcDigest(Buffer.from('a'), Buffer.from('bc'))).toBe(`sha1:${base32(createHash('sha1').update('abc').digest())}`);
	});
});
