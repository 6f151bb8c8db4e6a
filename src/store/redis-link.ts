import { isIP } from 'node:net';
import { StoreError } from '../errors/index.js';
import { describeRedis, type RedisTarget } from './redis-url.js';

/** How long to keep trying, at open and after a connection is lost mid-run. */
export interface RedisTimeouts {
	/** Longest an open waits for the server (connect, authenticate, select the db). Default 5000 ms. */
	openTimeoutMs?: number;
	/** Longest a lost connection is retried, with backoff, before the store fails. Default 30000 ms. */
	reconnectWindowMs?: number;
}

export const DEFAULT_OPEN_TIMEOUT_MS = 5_000;
export const DEFAULT_RECONNECT_WINDOW_MS = 30_000;

type Command = readonly string[];

/**
 * A Redis connection as the store uses it: raw commands, transactions, and one policy for
 * failure. Nothing Redis-typed leaves this module; every failure comes out as a
 * StoreError that names the server (never its password).
 *
 * Connection loss: @redis/client rejects the commands in flight when a socket dies (it
 * never re-sends them on its own, unlike ioredis's default) and queues new ones until it
 * has reconnected. Every command the store sends is idempotent (HMGET, ZRANGEBYLEX, and
 * MULTI blocks of HSET/HDEL/ZADD/ZREM that leave the same state however often they run),
 * so `read` and `write` send again what was in flight. Reconnects back off (50 ms
 * doubling, at most 2 s, plus jitter) until `reconnectWindowMs` has passed since the
 * connection was lost; then the client gives up, and whatever waits fails with
 * STORE_READ_FAILED or STORE_WRITE_FAILED.
 */
export interface RedisLink {
	/** The server, for messages: `redis://host:port/db (prefix P)`. */
	readonly name: string;
	/** Sends one read command (concurrent calls share one round trip), retried across a reconnect. */
	read<T>(command: Command): Promise<T>;
	/** Applies `commands` in one MULTI/EXEC: all of them or, on a failure, none. */
	write(commands: readonly Command[]): Promise<void>;
	close(): Promise<void>;
}

/**
 * Connects to `target`, retrying for up to `openTimeoutMs`. Throws StoreError
 * STORE_OPEN_FAILED naming host and port when the server can't be reached in time, or
 * refuses the credentials or the database at once.
 *
 * @example
 * const link = await connectRedis(parseRedisUrl('redis://127.0.0.1:6379'));
 * const [format] = await link.read<Array<string | null>>(['HMGET', 'revisit:meta', 'format']);
 */
export async function connectRedis(target: RedisTarget, timeouts: RedisTimeouts = {}): Promise<RedisLink> {
	// Loaded here, not at the top: the CLI bundle leaves the client out, so a LevelDB run never loads it.
	const { createClient, ErrorReply } = await import('@redis/client');
	const openTimeoutMs = timeouts.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
	const reconnectWindowMs = timeouts.reconnectWindowMs ?? DEFAULT_RECONNECT_WINDOW_MS;
	const name = describeRedis(target);
	const where = `${target.host}:${target.port}`;
	let opening = true;
	// When the server was last seen ready; an open counts from its start.
	let downSince: number | undefined = Date.now();
	let lastError: unknown;
	const client = createClient({
		socket: {
			host: target.host,
			port: target.port,
			// SNI takes a name, never an address (RFC 6066); certificates are checked against either.
			...(target.tls ? { tls: true as const, ...(isIP(target.host) ? {} : { servername: target.host }) } : {}),
			connectTimeout: Math.min(openTimeoutMs, 5_000),
			reconnectStrategy: (retries: number, cause: Error) => {
				lastError = cause;
				downSince ??= Date.now();
				// Wrong password, unknown user, no such database, a certificate not trusted: waiting will not fix it.
				if (cause instanceof ErrorReply || isCertificateError(cause)) return cause;
				const left = downSince + (opening ? openTimeoutMs : reconnectWindowMs) - Date.now();
				if (left <= 0) return cause;
				// The last wait ends at the deadline, so the attempt after it is the last one.
				return Math.min(50 * 2 ** retries + Math.floor(Math.random() * 100), 2_000, left);
			},
		},
		...(target.username === undefined ? {} : { username: target.username }),
		...(target.password === undefined ? {} : { password: target.password }),
		database: target.db,
		// RESP2: plain arrays and strings back from raw commands, on any server version.
		RESP: 2,
	});
	client.on('error', (error: unknown) => (lastError = error)); // without a listener an error would crash the process
	client.on('ready', () => (downSince = undefined));

	try {
		await client.connect();
	} catch (error) {
		try {
			client.destroy();
		} catch {
			// already closed by the reconnect strategy giving up
		}
		const seconds = Math.round(openTimeoutMs / 100) / 10;
		const detail = message(lastError ?? error);
		const refused = error instanceof ErrorReply || lastError instanceof ErrorReply;
		const why = isCertificateError(lastError)
			? `${detail} (a private CA can be trusted with NODE_EXTRA_CA_CERTS=ca.pem)`
			: refused
				? detail
				: `${detail} (gave up after ${seconds} s)`;
		const verb = refused || isCertificateError(lastError) ? 'open' : 'reach';
		throw new StoreError('STORE_OPEN_FAILED', `cannot ${verb} the Redis store at ${where}: ${why}`, { cause: lastError ?? error });
	}
	opening = false;

	const failed = (code: string, doing: string, error: unknown): StoreError =>
		new StoreError(code, `could not ${doing} the Redis store at ${where}: ${message(error === undefined ? lastError : error)}`, { cause: error });

	async function again<T>(code: string, doing: string, work: () => Promise<T>): Promise<T> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await work();
			} catch (error) {
				// A reply error is Redis refusing the command: sending it again would not help.
				// Otherwise the connection dropped with the command in flight; while the client is
				// still reconnecting (isOpen), the command waits in its queue for the new connection.
				if (error instanceof ErrorReply || !client.isOpen || attempt >= 20) throw failed(code, doing, error);
			}
		}
	}

	return {
		name,
		read: <T>(command: Command) => again('STORE_READ_FAILED', 'read from', () => client.sendCommand<T>(command)),
		write: (commands) =>
			again('STORE_WRITE_FAILED', 'write to', async () => {
				if (commands.length === 0) return;
				const multi = client.multi();
				for (const command of commands) multi.addCommand([...command]);
				await multi.exec();
			}),
		async close() {
			if (client.isOpen) await client.close();
		},
	};
}

/** A TLS handshake refused the server's certificate (Node's and OpenSSL's codes). */
function isCertificateError(error: unknown): boolean {
	const code = (error as { code?: unknown } | undefined)?.code;
	return typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);
}

/** An error's message; node's connection errors carry the address already, and none carries the password. */
function message(error: unknown): string {
	if (error instanceof Error) {
		const code = (error as { code?: string }).code;
		return error.message || code || error.name;
	}
	return String(error);
}
