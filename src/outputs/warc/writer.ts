import { closeSync, existsSync, fstatSync, openSync, writeSync } from 'node:fs';
import { serialise, warcDate, type WarcRecord } from './record.js';

export interface WarcWriterOptions {
	/** The first file's name (`crawl.warc.gz`); later ones are `crawl-00001.warc.gz`, … */
	path: string;
	/** Start a new file once one has passed this many bytes. */
	maxBytes?: number | undefined;
	/** The warcinfo fields at the head of every file (software, the run's options). */
	info: Record<string, string>;
	now(): number;
}

export interface WarcWriter {
	/** Appends the records of one URL, each a gzip member, before returning: a URL is committed only after this. */
	write(records: readonly WarcRecord[]): void;
	/** The files written so far. */
	files(): string[];
	close(): void;
}

/**
 * Writes WARC/1.1 files, one gzip member per record, a `warcinfo` record first in each.
 * A file is never appended to: each run, and each rotation past `maxBytes`, opens a new
 * one (`PATH` if free, else `BASE-NNNNN.warc.gz`, the first number free), so a run killed
 * mid-record leaves its truncated tail at the end of its own file and the next run's file
 * reads clean. Writes are synchronous: a record is in the file (the OS's cache) when
 * `write` returns, which is what lets the commit follow it.
 *
 * @example
 * const writer = openWarcWriter({ path: 'nightly.warc.gz', info: { software: 'revisit/0.1.0' }, now: Date.now });
 */
export function openWarcWriter(options: WarcWriterOptions): WarcWriter {
	const written: string[] = [];
	let fd: number | undefined;
	let size = 0;
	const open = () => {
		const path = freeName(options.path);
		fd = openSync(path, 'wx');
		written.push(path);
		size = 0;
		const block = Buffer.from(
			Object.entries(options.info)
				.map(([name, value]) => `${name}: ${value}\r\n`)
				.join(''),
		);
		append(
			serialise({
				type: 'warcinfo',
				headers: [['WARC-Filename', path.split('/').pop()!]],
				contentType: 'application/warc-fields',
				block,
				date: warcDate(options.now()),
			}),
		);
	};
	const append = (bytes: Buffer) => {
		for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd!, bytes, offset);
		size += bytes.length;
	};
	return {
		write(records) {
			if (records.length === 0) return;
			if (fd === undefined || (options.maxBytes !== undefined && size >= options.maxBytes)) {
				if (fd !== undefined) closeSync(fd);
				open();
			}
			append(Buffer.concat(records.map(serialise)));
		},
		files: () => [...written],
		close() {
			if (fd !== undefined) {
				// Sizes for the record: what was written, as the file system has it.
				size = fstatSync(fd).size;
				closeSync(fd);
				fd = undefined;
			}
		},
	};
}

/** `path` if no file has it, else the first `BASE-NNNNN.warc.gz` that is free. */
function freeName(path: string): string {
	if (!existsSync(path)) return path;
	const base = path.replace(/\.warc(\.gz)?$/, '');
	for (let n = 1; ; n++) {
		const candidate = `${base}-${String(n).padStart(5, '0')}.warc.gz`;
		if (!existsSync(candidate)) return candidate;
	}
}
