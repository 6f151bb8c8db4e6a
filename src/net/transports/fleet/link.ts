import { createHash } from 'node:crypto';
import { FleetError } from './errors.js';
import { credentials, socketOptions } from '../../../store/redis/link.js';
import { describeRedis, type RedisTarget } from '../../../store/redis/url.js';

export type Reply = string | number | null | Reply[];

/**
 * A raw connection for the fleet's queue: commands routed by the key they name (the
 * queue's keys share one Cluster slot), Lua scripts sent as EVALSHA and, on NOSCRIPT (a
 * restarted or failed-over Redis has an empty script cache), as EVAL: a NOSCRIPT reply
 * means the script did not run, so sending it again runs it once.
 *
 * Connection loss: the client reconnects with backoff (50 ms doubling to 2 s) for as long
 * as it is open; commands in flight when the socket died are rejected, newer ones wait
 * in the client's queue. Callers decide what a rejection means (see `retrying`).
 */
export interface FleetLink {
	readonly name: string;
	call(key: string, args: readonly string[]): Promise<Reply>;
	/** Drops the connection at once, failing what is in flight (a blocking read waits no longer). */
	destroy(): void;
	script(source: string, keys: readonly string[], args: readonly string[]): Promise<Reply>;
	close(): Promise<void>;
}

/**
 * Opens one fleet connection to a server or a Cluster. A worker and a coordinator each
 * open two: one for blocking reads (XREADGROUP BLOCK, BLMPOP), one for the rest.
 *
 * @example
 * const link = await openFleetLink(parseRedisUrl('redis://127.0.0.1:6379'));
 */
export async function openFleetLink(target: RedisTarget, openTimeoutMs = 5_000): Promise<FleetLink> {
	const { createClient, createCluster } = await import('@redis/client');
	const reconnectStrategy = (retries: number) => Math.min(50 * 2 ** retries, 2_000) + Math.floor(Math.random() * 100);
	const where = describeRedis(target);
	let send: (key: string, args: string[]) => Promise<unknown>;
	let close: () => Promise<void>;
	let destroy: () => void;
	let lastError: unknown;
	if (target.cluster) {
		const seeds = [{ host: target.host, port: target.port }, ...(target.seeds ?? [])];
		const cluster = createCluster({
			rootNodes: seeds.map((node) => ({ socket: { ...socketOptions(target, node, openTimeoutMs), reconnectStrategy }, ...credentials(target) })),
			defaults: { socket: { ...(target.tls ? { tls: true as const } : {}), reconnectStrategy }, ...credentials(target) },
			RESP: 2,
		});
		cluster.on('error', (error: unknown) => (lastError = error));
		cluster.on('node-error', (error: unknown) => (lastError = error));
		await withTimeout(cluster.connect(), openTimeoutMs, where, () => lastError);
		send = (key, args) => cluster.sendCommand(key, false, args);
		close = async () => void (cluster.isOpen && (await cluster.close()));
		destroy = () => cluster.destroy();
	} else {
		const client = createClient({
			socket: { ...socketOptions(target, target, openTimeoutMs), reconnectStrategy },
			...credentials(target),
			database: target.db,
			RESP: 2,
		});
		client.on('error', (error: unknown) => (lastError = error));
		await withTimeout(client.connect(), openTimeoutMs, where, () => lastError);
		send = (_key, args) => client.sendCommand(args);
		destroy = () => client.destroy();
		close = async () => {
			if (client.isOpen) await client.close().catch(() => client.destroy());
		};
	}
	const shas = new Map<string, string>();
	return {
		name: where,
		call: (key, args) => send(key, [...args]) as Promise<Reply>,
		async script(source, keys, args) {
			let sha = shas.get(source);
			if (!sha) shas.set(source, (sha = createHash('sha1').update(source).digest('hex')));
			const tail = [String(keys.length), ...keys, ...args];
			try {
				return (await send(keys[0]!, ['EVALSHA', sha, ...tail])) as Reply;
			} catch (error) {
				if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
				return (await send(keys[0]!, ['EVAL', source, ...tail])) as Reply;
			}
		},
		close,
		destroy: () => {
			try {
				destroy();
			} catch {
				// already closed
			}
		},
	};
}

/** An open that fails, or does not finish within `ms`, as FLEET_UNREACHABLE naming the server. */
async function withTimeout<T>(work: Promise<T>, ms: number, where: string, lastError: () => unknown): Promise<T> {
	try {
		return await within(work, ms);
	} catch (error) {
		const why =
			error instanceof Overdue ? `${String((lastError() as Error)?.message ?? 'timed out')} (gave up after ${ms / 1000} s)` : (error as Error).message;
		throw new FleetError('FLEET_UNREACHABLE', `cannot reach Redis at ${where}: ${why}`, { cause: error });
	}
}

/**
 * Runs `work` again while Redis is unreachable, for up to `timeoutMs` since the first
 * failure in a row, then throws FLEET_UNREACHABLE. Only for work that is safe to repeat
 * (every fleet script is: a lease token makes a repeat a no-op). A reply error (Redis
 * refused the command) is thrown at once.
 *
 * @example
 * await retrying(() => link.script(ISSUE, keys, args), { timeoutMs: 60_000, what: 'hand out work' });
 */
export async function retrying<T>(work: () => Promise<T>, options: { timeoutMs: number; what: string; name: string; signal?: AbortSignal }): Promise<T> {
	const since = Date.now();
	for (let attempt = 0; ; attempt++) {
		try {
			// While the client reconnects, a command waits in its queue without failing: the
			// budget bounds that wait too (with room for a blocking read's own second).
			return await within(work(), since + options.timeoutMs + 1_500 - Date.now());
		} catch (error) {
			if (isReplyError(error))
				throw new FleetError('FLEET_FAILED', `Redis refused to ${options.what} at ${options.name}: ${(error as Error).message}`, { cause: error });
			if (Date.now() - since >= options.timeoutMs || options.signal?.aborted) {
				throw new FleetError(
					'FLEET_UNREACHABLE',
					`Redis at ${options.name} unreachable for ${Math.round((Date.now() - since) / 1000)} s (--redis-timeout): could not ${options.what}`,
					{ cause: error },
				);
			}
			await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1_000)));
		}
	}
}

/** A reply error from Redis (ERR, WRONGTYPE, NOGROUP…), as opposed to a lost connection. */
export function isReplyError(error: unknown): boolean {
	return (
		(error as { constructor?: { name?: string } })?.constructor?.name === 'ErrorReply' ||
		/^(ERR|WRONGTYPE|NOGROUP|BUSYGROUP|NOPERM|WRONGPASS) /.test(String((error as Error)?.message))
	);
}

class Overdue extends Error {}

/** `work`, or an Overdue error once `ms` have passed. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Overdue('no answer')), Math.max(ms, 0))))]);
	} finally {
		clearTimeout(timer);
	}
}
