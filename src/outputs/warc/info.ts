import { VERSION } from '../../base/util/version.js';

/** The run's options that shaped a capture (a sweep's options have them all). */
export interface CaptureOptions {
	userAgent: string;
	acceptEncoding: string;
	concurrency: number;
	perHost: number;
	method: string;
	trust: { auditRate: number };
}

/**
 * The warcinfo fields at the head of each WARC a run writes: the software, the format,
 * and the options that shaped the capture.
 *
 * @example
 * openWarcWriter({ path, info: warcInfo(options, 'sweep'), now: Date.now })
 */
export function warcInfo(options: CaptureOptions, command: string): Record<string, string> {
	return {
		software: `revisit/${VERSION} (+https://github.com/revisit-crawler/revisit)`,
		format: 'WARC File Format 1.1',
		conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
		'http-header-user-agent': options.userAgent,
		'revisit-command': command,
		'revisit-options': JSON.stringify({
			acceptEncoding: options.acceptEncoding,
			concurrency: options.concurrency,
			perHost: options.perHost,
			method: options.method,
			audit: options.trust.auditRate,
		}),
	};
}
