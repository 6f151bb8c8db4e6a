import { StoreError } from '../../base/errors/index.js';

/** How long to keep trying, at open and after a connection is lost mid-run. */
export interface RedisTimeouts {
	/** Longest an open waits for the server (connect, authenticate, select the db). Default 5000 ms. */
	openTimeoutMs?: number;
	/** Longest a lost connection is retried, with backoff, before the store fails. Default 30000 ms. */
	reconnectWindowMs?: number;
}

export const DEFAULT_OPEN_TIMEOUT_MS = 5_000;
export const DEFAULT_RECONNECT_WINDOW_MS = 30_000;

/** @redis/client's reply error class: Redis refused a command (as opposed to a lost connection). */
type ReplyErrorClass = abstract new (...args: never[]) => Error;

/**
 * The connection policy shared by a single server and a Cluster's node connections:
 * reconnect with backoff (50 ms doubling, at most 2 s, plus jitter) until the open
 * timeout (while opening) or the reconnect window (after) has passed since the server
 * was last ready, and not at all on errors that waiting won't fix: a reply error (wrong
 * password, no such database) or a certificate not trusted.
 *
 * @example
 * const policy = connectionPolicy({ openTimeoutMs: 2_000 }, ErrorReply);
 * createClient({ socket: { reconnectStrategy: policy.reconnectStrategy } }).on('ready', policy.ready);
 */
export function connectionPolicy(timeouts: RedisTimeouts, ReplyError: ReplyErrorClass) {
	const openTimeoutMs = timeouts.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
	const reconnectWindowMs = timeouts.reconnectWindowMs ?? DEFAULT_RECONNECT_WINDOW_MS;
	let opening = true;
	// When a server was last seen ready; an open counts from its start.
	let downSince: number | undefined = Date.now();
	const policy = {
		openTimeoutMs,
		lastError: undefined as unknown,
		reconnectStrategy: (retries: number, cause: Error): number | Error => {
			policy.lastError = cause;
			downSince ??= Date.now();
			if (cause instanceof ReplyError || isCertificateError(cause)) return cause;
			const left = downSince + (opening ? openTimeoutMs : reconnectWindowMs) - Date.now();
			if (left <= 0) return cause;
			// The last wait ends at the deadline, so the attempt after it is the last one.
			return Math.min(50 * 2 ** retries + Math.floor(Math.random() * 100), 2_000, left);
		},
		ready: () => void (downSince = undefined),
		opened: () => void (opening = false),
		/** The StoreError for an open that failed with `error`. */
		openFailed(where: string, error: unknown): StoreError {
			const cause = policy.lastError ?? error;
			const refused = error instanceof ReplyError || cause instanceof ReplyError;
			const seconds = Math.round(openTimeoutMs / 100) / 10;
			const why = isCertificateError(cause)
				? `${message(cause)} (a private CA can be trusted with NODE_EXTRA_CA_CERTS=ca.pem)`
				: refused
					? message(cause)
					: `${message(cause)} (gave up after ${seconds} s)`;
			return new StoreError('STORE_OPEN_FAILED', `cannot ${refused || isCertificateError(cause) ? 'open' : 'reach'} the Redis store at ${where}: ${why}`, {
				cause,
			});
		},
		/**
		 * Runs `work`, sending it again when the connection dropped with it in flight (every
		 * command the store sends is idempotent) while the client is still reconnecting
		 * (`isOpen`: the new attempt waits in the client's queue). A reply error, a client
		 * that gave up, or a 20th failure is a StoreError with `code`.
		 */
		async retry<T>(isOpen: () => boolean, code: 'STORE_READ_FAILED' | 'STORE_WRITE_FAILED', what: string, work: () => Promise<T>): Promise<T> {
			for (let attempt = 1; ; attempt++) {
				try {
					return await work();
				} catch (error) {
					if (error instanceof ReplyError || !isOpen() || attempt >= 20) {
						throw new StoreError(code, `${what}: ${message(error ?? policy.lastError)}`, { cause: error });
					}
				}
			}
		},
	};
	return policy;
}

/** A TLS handshake refused the server's certificate (Node's and OpenSSL's codes). */
function isCertificateError(error: unknown): boolean {
	const code = (error as { code?: unknown } | undefined)?.code;
	return typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);
}

/** An error's message; node's connection errors carry the address already, and none carries the password. */
function message(error: unknown): string {
	if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
	return String(error);
}
