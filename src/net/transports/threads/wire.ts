import type { Attempt } from '../../http/request.js';
import type { AttemptSpec } from '../../http/transport.js';

/**
 * An attempt as it crosses to another thread or process: plain data only. The `while`
 * of an `Unless` is a function of the sender's state, so it is asked here, once, before
 * the attempt leaves (see net/http/transport.ts); the receiver only compares validators.
 */
export interface WireSpec {
	method: AttemptSpec['method'];
	url: string;
	headers: Record<string, string>;
	bodyMode: AttemptSpec['bodyMode'];
	unless?: { etag?: string | undefined; lastModified?: string | undefined } | undefined;
}

/**
 * The wire form of a spec.
 *
 * @example
 * worker.postMessage({ id, spec: toWire(spec) });
 */
export function toWire(spec: AttemptSpec): WireSpec {
	const { unless, ...rest } = spec;
	if (!unless || !(unless.while?.() ?? true)) return rest;
	return { ...rest, unless: { etag: unless.etag, lastModified: unless.lastModified } };
}

/**
 * An attempt as JSON text, Buffers (a kept body, raw bytes) as base64: the form for a
 * Redis stream or a pipe. Structured clone (worker threads) needs no encoding, only
 * `restoreBuffers` on arrival.
 *
 * @example
 * const text = encodeAttempt(await executor.attempt(spec, signal));
 * const attempt = decodeAttempt(text);
 */
export function encodeAttempt(attempt: Attempt): string {
	return JSON.stringify(attempt, function (this: Record<string, unknown>, key, value: unknown) {
		// `value` has been through Buffer's toJSON already; the holder still has the Buffer.
		const raw = this[key];
		return Buffer.isBuffer(raw) ? { $base64: raw.toString('base64') } : value;
	});
}

/** The attempt `encodeAttempt` wrote. */
export function decodeAttempt(text: string): Attempt {
	return JSON.parse(text, (_key, value: unknown) => (isBase64Box(value) ? Buffer.from(value.$base64, 'base64') : value)) as Attempt;
}

const isBase64Box = (value: unknown): value is { $base64: string } =>
	typeof value === 'object' && value !== null && typeof (value as { $base64?: unknown }).$base64 === 'string' && Object.keys(value).length === 1;

/**
 * Turns the Uint8Arrays that structured clone makes of Buffers back into Buffers, in place,
 * at any depth, so that a result from a worker thread is what an in-process one would be.
 *
 * @example
 * port.on('message', ({ attempt }) => resolve(restoreBuffers(attempt)));
 */
export function restoreBuffers<T>(value: T): T {
	if (typeof value !== 'object' || value === null) return value;
	for (const [key, inner] of Object.entries(value)) {
		if (inner instanceof Uint8Array && !Buffer.isBuffer(inner)) {
			(value as Record<string, unknown>)[key] = Buffer.from(inner.buffer, inner.byteOffset, inner.byteLength);
		} else if (typeof inner === 'object') restoreBuffers(inner);
	}
	return value;
}
