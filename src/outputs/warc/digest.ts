import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * RFC 4648 base32 (upper case, no padding needed for SHA-1's 20 bytes).
 *
 * @example
 * base32(Buffer.from('hi')) // 'NBUQ===='
 */
export function base32(bytes: Uint8Array): string {
	let out = '';
	let bits = 0;
	let value = 0;
	for (const byte of bytes) {
		value = (value << 8) | byte;
		bits += 8;
		while (bits >= 5) {
			out += ALPHABET[(value >>> (bits - 5)) & 31];
			bits -= 5;
		}
	}
	if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
	return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/**
 * A WARC digest in the `sha1:BASE32` form that CDX indexers and replay tools (pywb,
 * OpenWayback) compare: the SHA-1 of the bytes, base32-encoded.
 *
 * @example
 * warcDigest(Buffer.from('')) // 'sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ'
 */
export function warcDigest(...parts: Uint8Array[]): string {
	const hash = createHash('sha1');
	for (const part of parts) hash.update(part);
	return `sha1:${base32(hash.digest())}`;
}
