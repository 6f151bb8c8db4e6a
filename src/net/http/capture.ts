import type { Response } from 'got';
import type { WireCapture } from '../../domain/task/types.js';
import { isSecretHeader, REDACTED } from './headers.js';

/**
 * What a WARC needs of one exchange, taken from got's response: the request as sent
 * (method, target, Host and the header fields got wrote), the status line and the raw
 * header fields in the order received, and the body as received (decompress is off, so
 * content codings are still on). Node undoes chunking, so Transfer-Encoding is dropped and
 * a Content-Length for the bytes kept is given instead: a reader must not de-chunk them again.
 *
 * @example
 * result.wire = captureOf(response, 'GET', Date.now());
 */
export function captureOf(response: Response<Buffer>, method: string, at: number): WireCapture {
	const url = new URL(response.url);
	// A URL's user and password went as Basic auth: the record shows neither.
	url.username = '';
	url.password = '';
	const sent = response.request.options.headers as Record<string, string | string[] | undefined>;
	const secret = (response.request.options.context as { secretHeaders?: readonly string[] }).secretHeaders;
	const requestLines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
	for (const [name, value] of Object.entries(sent)) {
		if (value === undefined || name.toLowerCase() === 'host') continue;
		// The name stays, so a reader knows the header was sent; the value is not kept.
		requestLines.push(`${name}: ${isSecretHeader(name, secret) ? REDACTED : Array.isArray(value) ? value.join(', ') : value}`);
	}
	const raw = response.rawHeaders;
	const body = Buffer.isBuffer(response.body) ? response.body : Buffer.alloc(0);
	const lines = [`HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage ?? ''}`.trimEnd()];
	let hasLength = false;
	for (let i = 0; i + 1 < raw.length; i += 2) {
		const name = raw[i]!.toLowerCase();
		if (name === 'transfer-encoding') continue;
		if (name === 'content-length') {
			hasLength = true;
			lines.push(`${raw[i]}: ${body.length}`);
			continue;
		}
		lines.push(`${raw[i]}: ${raw[i + 1]}`);
	}
	if (!hasLength && response.statusCode !== 304) lines.push(`Content-Length: ${body.length}`);
	return { request: requestLines.join('\r\n'), response: lines.join('\r\n'), body, ip: response.ip, at, url: url.href };
}
