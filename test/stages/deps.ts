import { createHttpClient, type HttpClientOptions } from '../../src/net/http/client.js';
import { createLimiter } from '../../src/net/http/limiter.js';
import type { SendDeps } from '../../src/net/http/send.js';
import type { Clock } from '../../src/domain/task/clock.js';

/** The clock every stage test runs at: 2024-01-01T00:00:00Z, never moving. */
export const NOW = Date.UTC(2024, 0, 1);
export const fixedClock: Clock = { now: () => NOW };

/** No retries, so a request-counting assertion sees exactly what the stage sent. */
export const noRetries = { retries: 0, retryDelayMs: 1, maxRetryAfterMs: 1000 };

/**
 * What a stage that sends requests needs: a real got client (loopback allowed), a
 * limiter, the fixed clock and a fixed random source. Call `close()` after the test.
 *
 * @example
 * const deps = sendDeps();
 * try { ... } finally { deps.close(); }
 */
export function sendDeps(options: { random?: () => number; client?: Partial<HttpClientOptions> } = {}): SendDeps & { close(): void } {
	const client = createHttpClient({
		userAgent: 'revisit-test',
		timeoutMs: 5000,
		acceptEncoding: 'identity',
		maxSockets: 8,
		hardMaxSockets: 16,
		...options.client,
	});
	return {
		http: client.got,
		limiter: createLimiter({ concurrency: 8, perHost: 4 }),
		clock: fixedClock,
		random: options.random ?? (() => 0.5),
		close: () => client.close(),
	};
}
