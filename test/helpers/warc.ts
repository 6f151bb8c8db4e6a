import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import { warcDigest } from '../../src/outputs/warc/digest.js';

export interface ReadRecord {
	type: string;
	headers: Record<string, string>;
	block: Buffer;
	/** For request/response/revisit: what warcio's HTTP parser made of the block. */
	http?: { statusline: string; status?: number | string | undefined; headers: Record<string, string> } | undefined;
	/** The HTTP payload (the block after the HTTP header), for responses. */
	payload?: Buffer | undefined;
}

/**
 * Reads a WARC file twice: with warcio's WARCParser (types, HTTP blocks, payloads), and by
 * hand from the decompressed bytes, walking Content-Length by Content-Length, so that a
 * wrong length or a digest that does not match its block fails the read. Throws on any
 * block or payload digest that does not match.
 *
 * @example
 * const records = await readWarc('crawl.warc.gz');
 */
export async function readWarc(path: string, options: { truncatedTail?: boolean } = {}): Promise<ReadRecord[]> {
	// A killed writer may leave one gzip member cut short at the end: take what precedes it.
	const raw = options.truncatedTail ? gunzipSync(await readFile(path), { finishFlush: constants.Z_SYNC_FLUSH }) : gunzipSync(await readFile(path));
	const records: ReadRecord[] = [];
	let at = 0;
	while (at < raw.length) {
		const end = raw.indexOf('\r\n\r\n', at);
		if (end < 0 && options.truncatedTail) break;
		if (end < 0) throw new Error(`${path}: truncated WARC header at byte ${at}`);
		const lines = raw.subarray(at, end).toString('utf8').split('\r\n');
		if (lines[0] !== 'WARC/1.1') throw new Error(`${path}: expected WARC/1.1 at byte ${at}, got ${lines[0]}`);
		const headers = Object.fromEntries(lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
		const length = Number(headers['Content-Length']);
		const block = raw.subarray(end + 4, end + 4 + length);
		if (options.truncatedTail && raw.length < end + 8 + length) break;
		if (block.length !== length) throw new Error(`${path}: record at ${at} is truncated`);
		if (raw.subarray(end + 4 + length, end + 8 + length).toString() !== '\r\n\r\n') throw new Error(`${path}: record at ${at} does not end with CRLF CRLF`);
		if (warcDigest(block) !== headers['WARC-Block-Digest']) throw new Error(`${path}: block digest mismatch at ${at}`);
		records.push({ type: headers['WARC-Type']!, headers, block: Buffer.from(block) });
		at = end + 8 + length;
	}
	if (options.truncatedTail) return records;
	let i = 0;
	for await (const record of new WARCParser(createReadStream(path))) {
		const mine = records[i++];
		if (!mine || mine.type !== record.warcType) throw new Error(`${path}: warcio read ${record.warcType} where the walk read ${mine?.type}`);
		if (record.httpHeaders) {
			mine.http = {
				statusline: record.httpHeaders.statusline,
				status: record.httpHeaders.statusCode,
				headers: Object.fromEntries(record.httpHeaders.headers as unknown as Iterable<[string, string]>),
			};
		}
		const content = Buffer.from(await record.readFully(false));
		if (mine.type === 'response') {
			mine.payload = content;
			if (warcDigest(content) !== mine.headers['WARC-Payload-Digest'])
				throw new Error(`${path}: payload digest mismatch for ${mine.headers['WARC-Target-URI']}`);
		}
	}
	if (i !== records.length) throw new Error(`${path}: warcio read ${i} records, the walk ${records.length}`);
	return records;
}

/** How many records of each type. */
export const countTypes = (records: ReadRecord[]) =>
	records.reduce<Record<string, number>>((counts, record) => {
		counts[record.type] = (counts[record.type] ?? 0) + 1;
		return counts;
	}, {});
