import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { HttpClientOptions } from '../../http/client.js';
import type { Attempt } from '../../http/request.js';
import type { Transport } from '../../http/transport.js';
import type { RedisTarget } from '../../../store/redis/url.js';
import { batcher } from '../threads/batch.js';
import { decodeAttempt, toWire } from '../threads/wire.js';
import { fleetKeys } from './keys.js';
import { openFleetLink, retrying, within, type FleetLink, type Reply } from './link.js';
import { createPermits } from './permits.js';
import { DROP, ISSUE, RECLAIM } from './scripts.js';
import type { FleetOptions } from './options.js';

interface Pending {
	token: string;
	spec: string;
	entry: string;
	deliveries: number;
	timer?: NodeJS.Timeout | undefined;
	resolve(attempt: Attempt): void;
	reject(error: unknown): void;
}

/**
 * The coordinator's end of a Redis fleet: a Transport whose attempts are handed to
 * `revisit worker` processes through the queue (keys.ts, scripts.ts) and come back through
 * the run's result list. The caller's limiter slot stays taken until the outcome is back,
 * so per-host limits and rates hold for the whole fleet. A lease that expires is handed
 * out again under a new token (the old holder's outcome is then refused), at most
 * `maxDeliveries` times; then the URL gets a `DELIVERY_LIMIT` error verdict.
 *
 * @example
 * const fleet = await openCoordinator(target, settings, { leaseMs: 25_000, maxDeliveries: 3, redisTimeoutMs: 30_000, runTtlMs: 60_000 });
 */
export async function openCoordinator(target: RedisTarget, settings: HttpClientOptions, options: FleetOptions) {
	const keys = fleetKeys(target);
	const run = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
	const [link, blocking] = await Promise.all([openFleetLink(target), openFleetLink(target)]);
	const lease = keys.lease(run);
	const done = keys.done(run);
	const pending = new Map<string, Pending>();
	const counts = { issued: 0, answered: 0 };
	let seq = 0;
	// A lease token only has to differ from every other token of this run's lease hash
	// (the hash is the run's own): a counter does, without a random draw per request.
	let tokens = 0;
	const nextToken = () => (tokens++).toString(36);
	let failure: unknown;
	let closed = false;
	const stopping = new AbortController();
	const redis = <T>(what: string, work: (link: FleetLink) => Promise<Reply>, on = link) =>
		retrying(() => work(on), { timeoutMs: options.redisTimeoutMs, what, name: link.name, signal: stopping.signal }) as Promise<T>;

	const fail = (error: unknown) => {
		failure ??= error;
		for (const [id, entry] of pending) {
			clearTimeout(entry.timer);
			pending.delete(id);
			permits.give(id);
			entry.reject(failure);
		}
	};
	const permits = createPermits(keys, run, { perHost: options.perHost }, redis, fail);

	const heartbeat = async () => {
		const expires = Date.now() + options.runTtlMs;
		await redis('keep the run alive', (l) =>
			l.script(
				KEEP,
				[keys.run(run), lease, done, keys.runs],
				[
					run,
					String(options.runTtlMs),
					String(expires),
					JSON.stringify(settings),
					JSON.stringify({ host: hostname(), pid: process.pid, started: Date.now() }),
					String(counts.issued),
					String(counts.answered),
				],
			),
		);
	};
	await heartbeat();
	const beat = setInterval(() => void heartbeat().catch(fail), Math.max(500, options.runTtlMs / 6));
	beat.unref();

	const arm = (id: string, ms: number) => {
		const entry = pending.get(id);
		if (!entry) return;
		clearTimeout(entry.timer);
		entry.timer = setTimeout(() => void reclaim(id).catch(fail), ms + 50);
	};

	const issue = batcher<string>((ids) => {
		const live = ids.filter((id) => pending.has(id));
		if (live.length === 0) return;
		const args = [run, String(options.leaseMs), ...live.flatMap((id) => [id, pending.get(id)!.token, pending.get(id)!.spec])];
		counts.issued += live.length;
		redis<string[]>('hand out work', (l) => l.script(ISSUE, [keys.queue, lease], args)).then((entries) => {
			live.forEach((id, i) => {
				const entry = pending.get(id);
				if (!entry) return;
				if (entries[i]) entry.entry = entries[i]!;
				arm(id, options.leaseMs);
			});
		}, fail);
	});

	const reclaim = async (id: string) => {
		const entry = pending.get(id);
		if (!entry) return;
		const token = nextToken();
		const last = entry.deliveries + 1 >= options.maxDeliveries ? '1' : '0';
		const reply = await redis<[string, string | number, number]>('reclaim a lease', (l) =>
			l.script(RECLAIM, [keys.queue, lease], [run, String(options.leaseMs), id, entry.token, token, entry.spec, entry.entry, last]),
		);
		if (pending.get(id) !== entry) return;
		if (reply[0] === 'limit') {
			pending.delete(id);
			permits.give(id);
			const url = (JSON.parse(entry.spec) as { url: string }).url;
			const deliveries = entry.deliveries + 1;
			const message =
				`handed to a worker ${deliveries} times and never answered (--max-deliveries ${options.maxDeliveries}): a worker that dies on it, ` +
				`or workers that keep losing Redis`;
			return entry.resolve({
				retryable: false,
				result: { status: 0, finalUrl: url, permanent: false, bytes: 0, ms: 0, error: { code: 'DELIVERY_LIMIT', message } },
			});
		}
		if (reply[0] !== 'reissued') return arm(id, Number(reply[1]));
		entry.token = token;
		entry.entry = String(reply[1]);
		if (Number(reply[2]) === 1) entry.deliveries++;
		arm(id, options.leaseMs);
	};

	// Outcomes come back on the run's list; a blocking pop on its own connection.
	const receive = async () => {
		while (!closed && failure === undefined) {
			const reply = await redis<[string, string[]] | null>('read outcomes', (l) => l.call(done, ['BLMPOP', '1', '1', done, 'LEFT', 'COUNT', '512']), blocking);
			for (const text of reply?.[1] ?? []) {
				const first = text.indexOf('\n');
				const second = text.indexOf('\n', first + 1);
				const id = text.slice(0, first);
				const entry = pending.get(id);
				if (!entry || entry.token !== text.slice(first + 1, second)) continue;
				clearTimeout(entry.timer);
				pending.delete(id);
				permits.give(id);
				counts.answered++;
				entry.resolve(decodeAttempt(text.slice(second + 1)));
			}
		}
	};
	const receiving = receive().catch((error) => {
		if (!closed) fail(error);
	});

	const transport: Transport = {
		label: 'the Redis fleet',
		attempt(spec, signal) {
			if (failure !== undefined) return Promise.reject(failure);
			const id = String(seq++);
			return new Promise<Attempt>((resolve, reject) => {
				const onAbort = () => {
					const entry = pending.get(id);
					if (entry) {
						clearTimeout(entry.timer);
						pending.delete(id);
						permits.give(id);
						void redis('give up an attempt', (l) => l.script(DROP, [keys.queue, lease], [id, entry.entry])).catch(() => undefined);
					}
					reject(signal.reason);
				};
				if (signal.aborted) return onAbort();
				signal.addEventListener('abort', onAbort, { once: true });
				const settle =
					<T>(then: (value: T) => void) =>
					(value: T) => {
						signal.removeEventListener('abort', onAbort);
						then(value);
					};
				pending.set(id, { token: nextToken(), spec: JSON.stringify(toWire(spec)), entry: '', deliveries: 0, resolve: settle(resolve), reject: settle(reject) });
				// Handed out once this run may send to the origin with every other run's requests counted too.
				void permits.take(id, new URL(spec.url).origin).then(() => (pending.has(id) ? issue.push(id) : permits.give(id)));
			});
		},
	};

	return {
		run,
		transport,
		async close() {
			closed = true;
			// Permits go back first (while Redis calls still retry): the next run need not wait for them to lapse.
			if (failure === undefined) await within(permits.close(), 2_000).catch(() => undefined);
			else void permits.close(false);
			stopping.abort();
			clearInterval(beat);
			for (const entry of pending.values()) clearTimeout(entry.timer);
			blocking.destroy();
			await receiving;
			if (failure !== undefined) return link.destroy();
			// The run's keys go now; should this process die first, or Redis not answer, their TTL takes them.
			const cleanup = Promise.all([link.call(lease, ['DEL', keys.run(run), lease, done]), link.call(keys.runs, ['ZREM', keys.runs, run])]);
			const answered = await within(cleanup, 2_000).then(
				() => true,
				() => false,
			);
			if (answered) await link.close();
			else link.destroy();
		},
	};
}

/**
 * The run's heartbeat. KEYS: run hash, lease hash, result list, runs index. ARGV: run,
 * ttl ms, expiry (ms), settings, coordinator, issued, answered. Rewrites the settings each
 * time, so workers find them again after a Redis restart.
 */
const KEEP = `redis.call('HSET', KEYS[1], 'settings', ARGV[4], 'coordinator', ARGV[5], 'issued', ARGV[6], 'answered', ARGV[7])
redis.call('HSETNX', KEYS[2], '~lease', '0')
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
-- Runs whose coordinator stopped beating long ago: their keys have expired already.
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[2]))
return 1`;
