import type { WarcFlags } from '../../options/warc-flags.js';
import type { SweepOptions } from '../../pipelines/sweep-options.js';
import { VERSION } from '../../version.js';
import { openWarcWriter, type WarcWriter } from '../../warc/writer.js';

/**
 * The run's WARC writer when `--warc` is given (and the options that capture what it
 * needs), else none. The caller closes it when the run ends.
 *
 * @example
 * const warc = warcOutput(args, options, 'sweep');
 */
export function warcOutput(flags: WarcFlags, options: SweepOptions, command: string): { options: SweepOptions; writer?: WarcWriter } {
	if (flags.warc === undefined) return { options };
	const info = {
		software: `revisit/${VERSION} (+https://github.com/revisit-crawler/revisit)`,
		format: 'WARC File Format 1.1',
		conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
		'http-header-user-agent': options.userAgent,
		'revisit-command': command,
		'revisit-options': JSON.stringify({ acceptEncoding: options.acceptEncoding, concurrency: options.concurrency, perHost: options.perHost, method: options.method, audit: options.trust.auditRate }),
	};
	const writer = openWarcWriter({ path: flags.warc, maxBytes: flags['warc-max-size'], info, now: Date.now });
	return { options: { ...options, capture: true }, writer };
}
