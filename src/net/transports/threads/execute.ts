import { createHttpClient, type HttpClientOptions } from '../../http/client.js';
import type { Attempt } from '../../http/request.js';
import { inProcess } from '../../http/transport.js';
import type { WireSpec } from './wire.js';

/** What a worker sends attempts with: the run's own client settings, so its requests are the coordinator's. */
export interface Executor {
	/** Resolves with the attempt's outcome; per-URL failures are in the result, never a rejection but for an abort. */
	attempt(spec: WireSpec, signal: AbortSignal): Promise<Attempt>;
	close(): void;
}

/**
 * The sending end of the coordinator/worker protocol: a keep-alive client built from the
 * run's settings, sending each attempt as this process's in-process transport would. Used
 * by worker threads (`--local-workers`) and `revisit worker` processes alike.
 *
 * @example
 * const executor = createExecutor(settings);
 * const attempt = await executor.attempt({ method: 'GET', url, headers: {}, bodyMode: 'hash' }, signal);
 */
export function createExecutor(settings: HttpClientOptions): Executor {
	const client = createHttpClient(settings);
	const transport = inProcess(client.got, Date.now, Math.random);
	return {
		attempt: (spec, signal) => transport.attempt(spec, signal),
		close: () => client.close(),
	};
}
