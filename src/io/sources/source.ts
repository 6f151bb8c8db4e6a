import type { Writable } from 'node:stream';
import { map, type Observable } from 'rxjs';
import type { Valve } from '../../base/flow/valve.js';
import type { RetryPolicy, SendDeps } from '../../net/http/send.js';
import type { InputLine } from '../../domain/task/types.js';

/** What a source may use: the run's HTTP client and limiter (sitemaps), its valve, and the process edges. */
export interface SourceContext {
	deps: SendDeps;
	retry: RetryPolicy;
	/** Take one credit per line before emitting it (backpressure). */
	valve: Valve;
	stdin: AsyncIterable<Buffer | string>;
	/** Where a command's own stderr goes. */
	stderr: Writable;
	env: NodeJS.ProcessEnv;
}

/** A pipeline source: input lines, pulled through the context's valve. */
export type Source = (context: SourceContext) => Observable<InputLine>;

/**
 * Names each line's source, for diagnostics (`urls.txt line 3: not an absolute URL`).
 *
 * @example
 * readLines(stream, valve).pipe(labelled('urls.txt'))
 */
export const labelled = (source: string) => map((line: InputLine): InputLine => ({ ...line, source }));
