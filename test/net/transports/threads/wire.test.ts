import { describe, expect, it } from 'vitest';
import type { Attempt } from '../../../../src/net/http/request.js';
import { decodeAttempt, encodeAttempt, restoreBuffers, toWire } from '../../../../src/net/transports/threads/wire.js';

const attempt = (): Attempt => ({
	retryable: false,
	result: {
		status: 200,
		finalUrl: 'http://a.test/',
		permanent: false,
		bytes: 3,
		ms: 1,
		hash: 'ab',
		body: Buffer.from([0, 255, 10]),
		contentType: 'text/plain',
	},
});

describe('wire', () => {
	it('asks `unless.while` once, before the attempt leaves, and drops `unless` when it says no', () => {
		const spec = { method: 'GET' as const, url: 'http://a.test/', headers: { 'if-none-match': '"a"' }, bodyMode: 'hash' as const };
		expect(toWire({ ...spec, unless: { etag: '"a"', lastModified: undefined, while: () => true } })).toEqual({
			...spec,
			unless: { etag: '"a"', lastModified: undefined },
		});
		expect(toWire({ ...spec, unless: { etag: '"a"', while: () => false } })).toEqual(spec);
		expect(toWire(spec)).toEqual(spec);
	});

	it('JSON text keeps a body byte for byte, as a Buffer', () => {
		const back = decodeAttempt(encodeAttempt(attempt()));
		expect(Buffer.isBuffer(back.result.body)).toBe(true);
		expect(back).toEqual(attempt());
	});

	it('structured clone: restoreBuffers makes Buffers of the Uint8Arrays at any depth', () => {
		const cloned = structuredClone({ ...attempt(), result: { ...attempt().result, audit: attempt().result } });
		expect(Buffer.isBuffer(cloned.result.body)).toBe(false);
		const back = restoreBuffers(cloned);
		expect(Buffer.isBuffer(back.result.body)).toBe(true);
		expect(Buffer.isBuffer(back.result.audit?.body)).toBe(true);
		expect([...back.result.body!]).toEqual([0, 255, 10]);
	});
});
