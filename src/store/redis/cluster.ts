import { connectionPolicy, type RedisTimeouts } from './policy.js';
import { credentials, evalScript, luaScript, socketOptions, type Command, type RedisLink } from './link.js';
import { describeRedis, type RedisTarget } from './url.js';

/**
 * A RedisLink on a Redis Cluster (`redis+cluster://seed:port[&node=host:port…]`): the
 * client learns the slot map from a seed and sends each command to the node that owns
 * its key. Reads are single-key commands already (redis.ts asks one bucket at a time).
 *
 * Writes: MULTI/EXEC can't span slots, so a batch becomes one transaction per hash tag
 * (a bucket's record hash and index share one; the meta key is alone), sent together,
 * each as one script (APPLY) rather than MULTI, the commands and EXEC: as atomic, and one
 * command to send and one reply to read instead of two more than the batch has (a
 * watch writes a record or two per bucket at a time, bench/WATCH-SPEED.md).
 * Each bucket's part of a batch is all or nothing, the batch as a whole is not: a crash,
 * or a node lost for good, between two of them leaves part of it written. That is safe
 * for revisit, which commits state only after its verdict went out (commit-after-emit):
 * every put is a whole record, so a bucket written is simply ahead, and a bucket not
 * written is re-judged, and its changes re-reported, on the next run. A run-history row
 * is its own batch. Nothing reads two buckets expecting them to agree.
 *
 * Connection loss follows redis-policy.ts per node; the reconnect window is counted from
 * the last time any node was ready.
 */
export async function connectCluster(target: RedisTarget, timeouts: RedisTimeouts = {}): Promise<RedisLink> {
	const { createCluster, ErrorReply } = await import('@redis/client');
	const policy = connectionPolicy(timeouts, ErrorReply);
	const seeds = [{ host: target.host, port: target.port }, ...(target.seeds ?? [])];
	const where = seeds.map((node) => `${node.host}:${node.port}`).join(', ');
	const make = () => {
		const cluster = createCluster({
			rootNodes: seeds.map((node) => ({
				socket: { ...socketOptions(target, node, policy.openTimeoutMs), reconnectStrategy: policy.reconnectStrategy },
				...credentials(target),
			})),
			// The nodes the slot map names: same TLS, credentials and policy as the seeds.
			defaults: {
				socket: {
					...(target.tls ? { tls: true as const } : {}),
					connectTimeout: Math.min(policy.openTimeoutMs, 5_000),
					reconnectStrategy: policy.reconnectStrategy,
				},
				...credentials(target),
			},
			RESP: 2,
		});
		cluster.on('error', (error: unknown) => (policy.lastError = error));
		cluster.on('node-error', (error: unknown) => (policy.lastError = error));
		cluster.on('node-ready', policy.ready);
		return cluster;
	};
	// Discovering the slot map gives up at the first seed error; the open timeout is ours to keep.
	const deadline = Date.now() + policy.openTimeoutMs;
	let cluster = make();
	for (let attempt = 0; ; attempt++) {
		try {
			await cluster.connect();
			break;
		} catch (error) {
			try {
				cluster.destroy();
			} catch {
				// never opened
			}
			// A seed's own error (refused, timed out, WRONGPASS) says more than "All the root nodes are unavailable".
			const cause = policy.lastError ?? error;
			const wait = policy.reconnectStrategy(attempt, cause as Error);
			policy.lastError = cause;
			if (typeof wait !== 'number' || Date.now() >= deadline) throw policy.openFailed(where, error);
			await new Promise((resolve) => setTimeout(resolve, wait));
			cluster = make();
		}
	}
	policy.opened();
	const isOpen = () => cluster.isOpen;
	const reading = `could not read from the Redis Cluster at ${where}`;
	const writing = `could not write to the Redis Cluster at ${where}`;
	return {
		name: describeRedis(target),
		cluster: true,
		read: <T>(command: Command) => policy.retry(isOpen, 'STORE_READ_FAILED', reading, () => cluster.sendCommand<T>(command[1], true, [...command])),
		async write(commands) {
			const byTag = new Map<string, Command[]>();
			for (const command of commands) {
				const tag = hashTag(command[1]!);
				const group = byTag.get(tag);
				if (group) group.push(command);
				else byTag.set(tag, [command]);
			}
			await Promise.all(
				[...byTag.values()].map((group) =>
					policy.retry(isOpen, 'STORE_WRITE_FAILED', writing, async () => {
						if (group.every((command) => command.length <= APPLY_MOST_ARGS)) {
							await evalScript(
								(command) => cluster.sendCommand(group[0]![1], false, command),
								APPLY,
								[group[0]![1]!],
								group.flatMap((command) => [String(command.length), ...command]),
							);
							return;
						}
						const multi = cluster.multi(group[0]![1]);
						for (const command of group) multi.addCommand(command[1], false, [...command]);
						await multi.exec();
					}),
				),
			);
		},
		eval: <T>(script: Parameters<RedisLink['eval']>[0], keys: readonly string[], args: readonly string[]) =>
			policy.retry(isOpen, script.writes ? 'STORE_WRITE_FAILED' : 'STORE_READ_FAILED', script.writes ? writing : reading, () =>
				evalScript<T>((command) => cluster.sendCommand(keys[0], !script.writes, command), script, keys, args),
			),
		async close() {
			if (cluster.isOpen) await cluster.close();
		},
	};
}

/** Runs its ARGV as commands, each its length then its words: a transaction in one command. Every key shares KEYS[1]'s hash tag. */
const APPLY = luaScript(`local i = 1
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
return 1`);
/** Longest command APPLY takes (Lua's unpack is bounded by its C stack); a longer one goes in a MULTI. */
const APPLY_MOST_ARGS = 4_000;

/**
 * What Redis Cluster hashes a key by: the part between the first `{` and the next `}`
 * when it is not empty, else the whole key. Keys with one tag share a slot.
 *
 * @example
 * hashTag('revisit:{url.07}:rec') // 'url.07'
 */
export function hashTag(key: string): string {
	const open = key.indexOf('{');
	const close = open < 0 ? -1 : key.indexOf('}', open + 1);
	return close > open + 1 ? key.slice(open + 1, close) : key;
}
