import { identity, type MonoTypeOperatorFunction } from 'rxjs';
import type { WarcFlags } from '../flags/warc.js';
import type { SweepOptions } from '../../pipelines/sweep-options.js';
import { writeWarc } from '../../stages/write-warc.js';
import type { Task } from '../../types.js';
import { warcInfo } from '../../warc/info.js';
import { openWarcWriter } from '../../warc/writer.js';

/**
 * A command's WARC output: with `--warc`, the options that capture what it needs, the
 * stage that writes the records, and `close` for when the run ends; without, the
 * options as they are and a stage that does nothing.
 *
 * @example
 * const warc = warcOutput(args, options, 'sweep');
 * try { ... pipe(sweepStages(deps, warc.options), warc.archive, emit(outputs)) ... } finally { warc.close(); }
 */
export function warcOutput(flags: WarcFlags, options: SweepOptions, command: string): { options: SweepOptions; archive: MonoTypeOperatorFunction<Task>; close(): void } {
	if (flags.warc === undefined) return { options, archive: identity, close: () => {} };
	const writer = openWarcWriter({ path: flags.warc, maxBytes: flags['warc-max-size'], info: warcInfo(options, command), now: Date.now });
	return { options: { ...options, capture: true }, archive: writeWarc(writer), close: () => writer.close() };
}
