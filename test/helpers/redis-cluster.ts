import { connectRedis } from '../../src/store/redis/link.js';
import { parseRedisUrl } from '../../src/store/redis/url.js';
import { startRedis, type TestRedis } from './redis.js';

/** A Redis Cluster of primaries on 127.0.0.1, no replicas, until `stop()`. */
export interface TestCluster {
	nodes: TestRedis[];
	/** A store URL naming the first node as the seed (the client discovers the rest). */
	url(prefix: string): string;
	stop(): Promise<void>;
}

const SLOTS = 16_384;

/**
 * Starts `size` redis-servers with `--cluster-enabled yes`, gives each an even share of
 * the 16384 slots (CLUSTER ADDSLOTSRANGE, Redis 7), joins them (CLUSTER MEET), and waits
 * until every node reports cluster_state:ok.
 *
 * @example
 * const cluster = await startRedisCluster(3);
 * const store = await RedisStore.open(cluster.url('t1:'));
 */
export async function startRedisCluster(size = 3): Promise<TestCluster> {
	const nodes = await Promise.all(Array.from({ length: size }, () => startRedis({ cluster: true })));
	const stop = async () => void (await Promise.all(nodes.map((node) => node.stop())));
	try {
		for (const [i, node] of nodes.entries()) {
			const from = Math.floor((i * SLOTS) / size);
			const to = Math.floor(((i + 1) * SLOTS) / size) - 1;
			await command(node, ['CLUSTER', 'ADDSLOTSRANGE', String(from), String(to)]);
		}
		for (const node of nodes.slice(1)) await command(nodes[0]!, ['CLUSTER', 'MEET', '127.0.0.1', String(node.port)]);
		for (const deadline = Date.now() + 20_000; ; ) {
			const infos = await Promise.all(nodes.map((node) => command<string>(node, ['CLUSTER', 'INFO'])));
			if (infos.every((info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${size}`))) break;
			if (Date.now() > deadline) throw new Error(`the cluster did not form: ${infos[0]}`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	} catch (error) {
		await stop();
		throw error;
	}
	return {
		nodes,
		url: (prefix) => `redis+cluster://127.0.0.1:${nodes[0]!.port}?prefix=${encodeURIComponent(prefix)}`,
		stop,
	};
}

async function command<T = unknown>(node: TestRedis, args: string[]): Promise<T> {
	const link = await connectRedis(parseRedisUrl(node.url('setup:')));
	try {
		return await link.read<T>(args);
	} finally {
		await link.close();
	}
}
