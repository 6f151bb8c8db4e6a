import { createHash } from 'node:crypto';

/**
 * Hash of decoded body bytes: SHA-256 cut to 128 bits, hex. Bytes, never text, so a
 * charset guess can't make an unchanged page look changed.
 *
 * @example
 * hashBody(Buffer.from('hello')) // '2cf24dba5fb0a30e26e83b2ac5b9e29e'
 */
export function hashBody(body: Uint8Array): string {
	return createHash('sha256').update(body).digest('hex').slice(0, 32);
}
