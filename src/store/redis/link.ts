import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { connectionPolicy, type RedisTimeouts } from './policy.js';
import { describeRedis, type RedisTarget } from './url.js';

export type { RedisTimeouts } from './policy.js';
export { DEFAULT_OPEN_TIMEOUT_MS, DEFAULT_RECONNECT_WINDOW_MS } from './policy.js';

export type Command = readonly string[];

/**
 * A Redis connection as the store uses it: raw commands, transactions, and one policy for
 * failure (redis-policy.ts). Nothing Redis-typed leaves this module; every failure comes
 * out as a StoreError that names the server (never its password).
 *
 * Connection loss: @redis/client rejects the commands in flight when a socket dies (it
 * never re-sends them on its own, unlike ioredis's default) and queues new ones until it
 * has reconnected. Every command the store sends is idempotent (HMGET, ZRANGEBYLEX, and
 * MULTI blocks of HSET/HDEL/ZADD/ZREM that leave the same state however often they run),
 * so `read` and `write` send again what was in flight; `eval` does too, and each script
 * says why a second run is safe (store/redis/due/scripts.ts). Reconnects back off until
 * `reconnectWindowMs` has passed since the connection was lost; then the client gives
 * up, and whatever waits fails with STORE_READ_FAILED or STORE_WRITE_FAILED.
 */
export interface RedisLink {
	/** The server, for messages: `redis://host:port/db (prefix P)`. */
	readonly name: string;
	/** Whether it is a Redis Cluster, whose nodes each hold some of the hash tags. */
	readonly cluster: boolean;
	/** Sends one read command, whose first argument is its key (concurrent calls share a round trip), retried across a reconnect. */
	read<T>(command: Command): Promise<T>;
	/**
	 * Applies `commands` (each with its key first) in MULTI/EXEC: on one server, all of them
	 * or, on a failure, none; on a Cluster, one transaction per hash tag.
	 */
	write(commands: readonly Command[]): Promise<void>;
	/**
	 * Runs a Lua script on the node that holds `keys[0]` (on a Cluster, every key the script
	 * touches must share its hash tag), sent again across a reconnect as `write` is: a
	 * script must be safe to run twice, or say why a second run does no harm. Fails with
	 * STORE_WRITE_FAILED, or STORE_READ_FAILED for a script made with `writes: false`.
	 */
	eval<T>(script: LuaScript, keys: readonly string[], args: readonly string[]): Promise<T>;
	close(): Promise<void>;
}

/** A Lua script, with its SHA-1 for EVALSHA; `writes: false` for one that only reads. */
export interface LuaScript {
	readonly source: string;
	readonly sha: string;
	readonly writes: boolean;
}

/**
 * A script for `RedisLink.eval`.
 *
 * @example
 * const NOW = luaScript("return redis.call('TIME')", { writes: false });
 */
export function luaScript(source: string, options: { writes?: boolean } = {}): LuaScript {
	return { source, sha: createHash('sha1').update(source).digest('hex'), writes: options.writes ?? true };
}

/**
 * Sends a script as EVALSHA and, when the server has not cached it (NOSCRIPT: a restarted
 * or failed-over Redis starts with none), as EVAL. A NOSCRIPT reply means nothing ran, so
 * the EVAL runs the script once.
 */
export async function evalScript<T>(
	send: (args: string[]) => Promise<unknown>,
	script: LuaScript,
	keys: readonly string[],
	args: readonly string[],
): Promise<T> {
	const tail = [String(keys.length), ...keys, ...args];
	try {
		return (await send(['EVALSHA', script.sha, ...tail])) as T;
	} catch (error) {
		if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
		return (await send(['EVAL', script.source, ...tail])) as T;
	}
}

/**
 * Connects to `target` (a server, or a Cluster through its seeds), retrying for up to
 * `openTimeoutMs`. Throws StoreError STORE_OPEN_FAILED naming host and port when the
 * server can't be reached in time, or refuses the credentials, the database or the
 * certificate at once.
 *
 * @example
 * const link = await connectRedis(parseRedisUrl('redis://127.0.0.1:6379'));
 * const [format] = await link.read<Array<string | null>>(['HMGET', 'revisit:meta', 'format']);
 */
export async function connectRedis(target: RedisTarget, timeouts: RedisTimeouts = {}): Promise<RedisLink> {
	if (target.cluster) return (await import('./cluster.js')).connectCluster(target, timeouts);
	// Loaded here, not at the top: the CLI bundle leaves the client out, so a LevelDB run never loads it.
	const { createClient, ErrorReply } = await import('@redis/client');
	const policy = connectionPolicy(timeouts, ErrorReply);
	const where = `${target.host}:${target.port}`;
	const client = createClient({
		socket: { ...socketOptions(target, target, policy.openTimeoutMs), reconnectStrategy: policy.reconnectStrategy },
		...credentials(target),
		database: target.db,
		// RESP2: plain arrays and strings back from raw commands, on any server version.
		RESP: 2,
	});
	client.on('error', (error: unknown) => (policy.lastError = error)); // without a listener an error would crash the process
	client.on('ready', policy.ready);
	try {
		await client.connect();
	} catch (error) {
		try {
			client.destroy();
		} catch {
			// already closed by the reconnect strategy giving up
		}
		throw policy.openFailed(where, error);
	}
	policy.opened();
	const isOpen = () => client.isOpen;
	return {
		name: describeRedis(target),
		cluster: false,
		read: <T>(command: Command) =>
			policy.retry(isOpen, 'STORE_READ_FAILED', `could not read from the Redis store at ${where}`, () => client.sendCommand<T>(command)),
		write: (commands) =>
			policy.retry(isOpen, 'STORE_WRITE_FAILED', `could not write to the Redis store at ${where}`, async () => {
				if (commands.length === 0) return;
				const multi = client.multi();
				for (const command of commands) multi.addCommand([...command]);
				await multi.exec();
			}),
		eval: <T>(script: LuaScript, keys: readonly string[], args: readonly string[]) =>
			policy.retry(
				isOpen,
				script.writes ? 'STORE_WRITE_FAILED' : 'STORE_READ_FAILED',
				`could not ${script.writes ? 'write to' : 'read from'} the Redis store at ${where}`,
				() => evalScript<T>((command) => client.sendCommand(command), script, keys, args),
			),
		async close() {
			if (client.isOpen) await client.close();
		},
	};
}

/** Host, port and TLS of one connection. SNI takes a name, never an address (RFC 6066). */
export function socketOptions(target: RedisTarget, node: { host: string; port: number }, openTimeoutMs: number) {
	const tls = target.tls ? { tls: true as const, ...(isIP(node.host) ? {} : { servername: node.host }) } : {};
	return { host: node.host, port: node.port, ...tls, connectTimeout: Math.min(openTimeoutMs, 5_000) };
}

/** The ACL user and password, when the URL has them. */
export function credentials(target: RedisTarget): { username?: string; password?: string } {
	return {
		...(target.username === undefined ? {} : { username: target.username }),
		...(target.password === undefined ? {} : { password: target.password }),
	};
}
