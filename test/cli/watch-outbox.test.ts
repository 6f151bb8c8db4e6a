import net, { type AddressInfo, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { outageReceiver, type OutageReceiver } from '../helpers/outage.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { startWatchOrigin, type OriginHit, type WatchOrigin } from '../helpers/watch-origin.js';
import { startDripSmtp } from '../io/notify/hanging.js';
import { waitFor } from '../helpers/wait-for.js';

const QUIET = ['--robots', 'ignore', '--audit', '0', '--ndjson', '-q'];
/** Each page checked again every second of wall time. */
const EVERY_SECOND = ['--time-scale', '3600', '--min-interval', '1h', '--max-interval', '1h', '--rate', '100/s'];

const pages = (hits: OriginHit[]) => hits.filter((hit) => hit.path.startsWith('/p'));
/** The pages a watch has judged at least once (printed their first sighting): a change made after is a change to it. */
const sighted = (stdout: string) => new Set(ndjson(stdout).map((verdict) => verdict.url as string)).size;
/** The changes a watch printed (first sightings are not told without --feed-new), in order. */
const changesIn = (stdout: string) =>
	ndjson(stdout)
		.filter((verdict) => verdict.changed === true && verdict.reason !== 'new')
		.map((verdict) => verdict.url as string);

/** An SMTP server that accepts connections and never says a word. */
async function startSilentSmtp(): Promise<{ port: number; reached: Promise<void>; close(): Promise<void> }> {
	let reach: () => void;
	const reached = new Promise<void>((resolve) => (reach = resolve));
	const sockets = new Set<Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => {});
		reach();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		reached,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

describe('revisit watch --notify through the outbox (LevelDB store)', () => {
	let origin: WatchOrigin;
	let target: OutageReceiver;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		store = await tempDir('revisit-outbox-');
		origin = await startWatchOrigin(0);
		target = await outageReceiver();
	});
	afterEach(async () => {
		await target.down();
		await origin.close();
		await store.cleanup();
	});

	it('a target that is down: the watch keeps checking, names it once; back, it gets each change once, in order; SIGTERM exits 0', async () => {
		const urls = ['/p0', '/p1', '/p2', '/p3'].map((path) => origin.url(path));
		const watch = spawnCli(
			['watch', '--store', store.dir, ...EVERY_SECOND, '--notify', `json://${target.host}:${target.port}/hook`, ...QUIET],
			urls.join('\n'),
		);
		await waitFor(() => sighted(watch.stdout()) === 4, 'every page judged once');
		for (const path of ['/p0', '/p1', '/p2']) origin.change(path);
		await waitFor(() => changesIn(watch.stdout()).length === 3, 'three changes found while the target is down');
		// It used to exit 1 here, at the first change it could not deliver; now it goes on checking.
		const seen = pages(origin.hits).length;
		await waitFor(() => pages(origin.hits).length >= seen + 12, 'checks going on while the target is down');
		origin.change('/p3');
		await waitFor(() => changesIn(watch.stdout()).length === 4, 'a fourth change');
		await target.up();
		await waitFor(() => target.received.length === 4, 'the four changes delivered once the target is back');
		origin.change('/p0');
		await waitFor(() => target.received.length === 5, 'a change after the target came back, delivered');
		watch.child.kill('SIGTERM');
		const { status, stdout, stderr } = await watch.done;
		expect(status).toBe(0);
		// Each change told once, in the order the watch found them.
		expect(target.received.map((body) => body.url)).toEqual(changesIn(stdout));
		expect(stderr.match(/cannot deliver/g)).toHaveLength(1);
		expect(stderr).toMatch(new RegExp(`revisit: notify json://127\\.0\\.0\\.1:${target.port}/hook: cannot deliver \\(.*ECONNREFUSED.*\\)`));
		expect(stderr.match(/delivering again/g)).toHaveLength(1);
	}, 90_000);

	it.each(['never greets', 'drips 250- lines'] as const)(
		'a mail server that %s delays no check and no other target; SIGTERM ends the watch within 10 s',
		async (kind) => {
			const smtp = kind === 'drips 250- lines' ? await startDripSmtp() : await startSilentSmtp();
			await target.up();
			try {
				const urls = ['/p0', '/p1'].map((path) => origin.url(path));
				const mail = `mailto://127.0.0.1:${smtp.port}?from=revisit@example.org&to=me@example.org`;
				const watch = spawnCli(
					['watch', '--store', store.dir, ...EVERY_SECOND, '--notify', mail, '--notify', `json://${target.host}:${target.port}/hook`, ...QUIET],
					urls.join('\n'),
				);
				await waitFor(() => sighted(watch.stdout()) === 2, 'every page judged once');
				origin.change('/p0');
				await smtp.reached;
				// The other target is told while the mail server holds its connection.
				await waitFor(() => target.received.length === 1, 'the JSON target told of the change');
				const seen = pages(origin.hits).length;
				await waitFor(() => pages(origin.hits).length >= seen + 8, 'checks going on at the origin while the mail server hangs');
				watch.child.kill('SIGTERM');
				const sent = Date.now();
				let bound: NodeJS.Timeout | undefined;
				const ended = await Promise.race([watch.done, new Promise<undefined>((resolve) => (bound = setTimeout(() => resolve(undefined), 10_000)))]);
				clearTimeout(bound);
				if (!ended) watch.child.kill('SIGKILL');
				expect(ended).toMatchObject({ status: 0 });
				expect(Date.now() - sent).toBeLessThan(10_000);
				expect(ended!.stderr).toContain(
					`notify mailto://127.0.0.1:${smtp.port}?from=revisit@example.org&to=me@example.org: 1 delivery pending, kept in the store`,
				);
			} finally {
				await smtp.close();
			}
		},
		90_000,
	);
});

describeRedis('revisit watch --notify through the outbox (Redis store)', () => {
	let redis: TestRedis;
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		await redis?.stop();
	});

	it('kill -9 while the target is down: the pending changes are in the store (revisit stats lists them), ' +
		'and the restarted watch delivers each once', async () => {
		const origin = await startWatchOrigin(0);
		const target = await outageReceiver();
		const store = redis.url(`outbox${process.pid}:`);
		try {
			const urls = ['/p0', '/p1', '/p2'].map((path) => origin.url(path));
			const args = ['watch', '--store', store, ...EVERY_SECOND, '--notify', `json://${target.host}:${target.port}/hook`, ...QUIET];
			const first = spawnCli(args, urls.join('\n'));
			await waitFor(() => sighted(first.stdout()) === 3, 'every page judged once');
			for (const path of ['/p0', '/p1', '/p2']) origin.change(path);
			await waitFor(() => changesIn(first.stdout()).length === 3, 'three changes found while the target is down');
			// Committed with the changes: a Redis store is read while the watch runs.
			await waitFor(
				async () => /notify json:\/\/127\.0\.0\.1:\d+\/hook {2}3 pending/.test((await runCli(['stats', '--store', store])).stdout),
				'stats to list three pending deliveries',
			);
			first.child.kill('SIGKILL');
			const told = changesIn((await first.done).stdout);
			await target.up();
			const second = spawnCli(args, urls.join('\n'));
			await waitFor(() => target.received.length >= 3, 'the pending changes delivered by the restarted watch');
			second.child.kill('SIGTERM');
			const { status, stdout } = await second.done;
			expect(status).toBe(0);
			expect(target.received.map((body) => body.url)).toEqual([...told, ...changesIn(stdout)]);
			expect((await runCli(['stats', '--store', store])).stdout).not.toContain('Pending deliveries');
		} finally {
			await target.down();
			await origin.close();
		}
	}, 90_000);
});
