import { sizeValue } from '../../config/values.js';
import { writeWarc } from '../../stages/write-warc.js';
import { openWarcWriter } from '../../outputs/warc/writer.js';
import { withResource } from './resource.js';
import type { Sink } from './sink.js';

export interface WarcSinkOptions {
	path: string;
	maxSize?: number | string | undefined;
	/** The warcinfo fields (see outputs/warc/info.ts). */
	info: Record<string, string>;
}

/**
 * A WARC archive of the run, as `--warc`: the `writeWarc` stage with a writer opened for
 * the run and closed when it ends. Every verdict passes (revisits are records too); the
 * run must capture exchanges (a pipeline with a warc sink does).
 *
 * @example
 * warcSink({ path: 'nightly.warc.gz', maxSize: '1GB', info })
 */
export function warcSink(options: WarcSinkOptions): Sink {
	// Checked when the pipeline is compiled, not when the first record is written.
	const maxBytes = options.maxSize === undefined ? undefined : typeof options.maxSize === 'number' ? options.maxSize : sizeValue('maxSize')(options.maxSize);
	return (context) =>
		withResource(
			async () => openWarcWriter({ path: options.path, maxBytes, info: options.info, now: context.clock.now }),
			(writer) => writeWarc(writer),
			async (writer) => writer.close(),
		);
}
