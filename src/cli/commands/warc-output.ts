import type { WarcFlags } from '../../options/warc-flags.js';
import type { SweepOptions } from '../../pipelines/sweep-options.js';
import { warcInfo } from '../../warc/info.js';
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
	const writer = openWarcWriter({ path: flags.warc, maxBytes: flags['warc-max-size'], info: warcInfo(options, command), now: Date.now });
	return { options: { ...options, capture: true }, writer };
}
