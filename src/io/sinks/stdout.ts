import { emit, type When } from '../../stages/emit.js';
import { quiet, type Sink } from './sink.js';

/**
 * Standard output: changed URLs one per line by default, or verdict objects (`ndjson`),
 * for the verdicts `when` selects. The same `emit` stage as `revisit sweep`.
 *
 * @example
 * stdoutSink({ format: 'ndjson', when: 'all' })
 */
export function stdoutSink(options: { format?: 'lines' | 'ndjson' | undefined; when?: When | undefined } = {}): Sink {
	return (context) => emit({ format: options.format ?? 'lines', when: options.when ?? 'changed' }, { out: context.out, ordered: true, diagnose: quiet });
}
