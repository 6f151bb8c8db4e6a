import type { SweepOptions } from '../pipelines/sweep-options.js';
import { VERSION } from '../version.js';

/**
 * The warcinfo fields at the head of each WARC a run writes: the software, the format,
 * and the options that shaped the capture.
 *
 * @example
 * openWarcWriter({ path, info: warcInfo(options, 'sweep'), now: Date.now })
 */
export function warcInfo(options: Pick<SweepOptions, 'userAgent' | 'acceptEncoding' | 'concurrency' | 'perHost' | 'method' | 'trust'>, command: string): Record<string, string> {
	return {
		software: `revisit/${VERSION} (+https://github.com/revisit-crawler/revisit)`,
		format: 'WARC File Format 1.1',
		conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
		'http-header-user-agent': options.userAgent,
		'revisit-command': command,
		'revisit-options': JSON.stringify({ acceptEncoding: options.acceptEncoding, concurrency: options.concurrency, perHost: options.perHost, method: options.method, audit: options.trust.auditRate }),
	};
}
