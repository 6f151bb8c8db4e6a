import type { When } from '../../stages/emit.js';
import { writeBodies } from '../../stages/write-bodies.js';
import type { Rule } from '../../domain/content/rules.js';
import type { Sink } from './sink.js';

/**
 * Fetched bodies, one file per URL under a folder per host, and `index.ndjson`: the same
 * `writeBodies` stage as `revisit crawl --out DIR`. Needs a fetch stage to have bodies.
 * `when` narrows which verdicts' bodies are written (default: changed).
 *
 * @example
 * dirSink({ path: 'pages', when: 'all' })
 */
export function dirSink(options: { path: string; when?: When | undefined; diff?: boolean | undefined; rules?: readonly Rule[] | undefined }): Sink {
	const diff = options.diff ? { rules: options.rules ?? [] } : undefined;
	return (context) => writeBodies({ when: options.when ?? 'changed', diff }, { sink: { type: 'dir', dir: options.path }, clock: context.clock });
}
