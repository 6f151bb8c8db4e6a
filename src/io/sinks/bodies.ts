import { writeBodies } from '../../stages/write-bodies.js';
import type { Sink } from './sink.js';

/**
 * Every fetched body as one NDJSON object on standard output (`revisit fetch --ndjson`):
 * its verdict fields, and the body as utf8 text or base64.
 *
 * @example
 * bodiesSink()(context)
 */
export function bodiesSink(): Sink {
	return (context) => writeBodies({}, { sink: { type: 'ndjson', out: context.out }, clock: context.clock });
}
