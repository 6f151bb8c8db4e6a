import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { warcDigest } from './digest.js';

/** A WARC 1.1 record before serialisation: its named headers and its block. */
export interface WarcRecord {
	type: 'warcinfo' | 'request' | 'response' | 'revisit';
	/** Further headers, in order (WARC-Target-URI, WARC-Payload-Digest…). */
	headers: Array<[string, string]>;
	contentType: string;
	block: Buffer;
	/** WARC-Date, ISO 8601 with seconds. */
	date: string;
	/** Set to tie a request to its response (WARC-Concurrent-To). */
	id?: string;
}

/** A fresh `<urn:uuid:…>` record id. */
export const recordId = (): string => `<urn:uuid:${randomUUID()}>`;

/**
 * One record as bytes: the WARC/1.1 header (WARC-Type, WARC-Record-ID, WARC-Date, the
 * record's own headers, Content-Type, WARC-Block-Digest, Content-Length), the block, and
 * the two CRLFs that end a record, compressed as its own gzip member so that readers can
 * seek to any record (what `.warc.gz` means).
 *
 * @example
 * const bytes = serialise({ type: 'warcinfo', headers: [], contentType: 'application/warc-fields', block, date });
 */
export function serialise(record: WarcRecord): Buffer {
	const lines = [
		'WARC/1.1',
		`WARC-Type: ${record.type}`,
		`WARC-Record-ID: ${record.id ?? recordId()}`,
		`WARC-Date: ${record.date}`,
		...record.headers.map(([name, value]) => `${name}: ${value}`),
		`Content-Type: ${record.contentType}`,
		`WARC-Block-Digest: ${warcDigest(record.block)}`,
		`Content-Length: ${record.block.length}`,
	];
	return gzipSync(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), record.block, Buffer.from('\r\n\r\n')]));
}

/** WARC-Date for epoch ms: ISO 8601 UTC to the second, as WARC 1.1 readers expect. */
export const warcDate = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
