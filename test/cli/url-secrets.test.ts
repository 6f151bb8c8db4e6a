import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outboxTargets } from '../../src/io/outbox/targets.js';
import { openStore } from '../../src/store/open.js';
import { RECORD_VERSION, type Delivery } from '../../src/store/model/types.js';
import { ndjson, spawnCli, tempDir } from '../helpers/cli.js';
import { getWithHost } from '../helpers/listening.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait-for.js';
import { startWatchOrigin, type WatchOrigin } from '../helpers/watch-origin.js';
import { MESSAGE } from '../io/notify/receiver.js';

const QUIET = ['--robots', 'ignore', '--audit', '0', '--ndjson', '-q'];
/** Each page checked again every second of wall time. */
const EVERY_SECOND = ['--time-scale', '3600', '--min-interval', '1h', '--max-interval', '1h', '--rate', '100/s'];

const TOKEN = 'q-tok3n-SECRET';
const HEADER = 'h-api-key-SECRET';
const NTFY = 'n-bearer-SECRET';
const HOOK = 'w-sig-SECRET';
const SECRETS = [TOKEN, HEADER, NTFY, HOOK];

/** One request the receiver took: its path with the query, its headers. */
interface Taken {
	path: string;
	authorization?: string | undefined;
	apiKey?: string | undefined;
}

/** A receiver for every target (json://, ntfy:// and the webhook) that answers 503 while down. */
async function startReceiver(): Promise<{ server: TestServer; port: number; taken: Taken[]; up(): void }> {
	let down = true;
	const taken: Taken[] = [];
	const server = await startServer((req, res) => {
		req.resume();
		req.on('end', () => {
			if (down) return void res.writeHead(503).end();
			taken.push({ path: req.url ?? '', authorization: req.headers['authorization'], apiKey: req.headers['x-api-key'] as string | undefined });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	return { server, port: Number(new URL(server.origin).port), taken, up: () => (down = false) };
}

const noSecret = (where: string, text: string) => {
	for (const secret of SECRETS) expect(text, `${where} shows ${secret}`).not.toContain(secret);
};

describe('secrets in target URLs are shown nowhere, and still sent', () => {
	let origin: WatchOrigin;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		store = await tempDir('revisit-url-secrets-');
		origin = await startWatchOrigin(0);
		receiver = await startReceiver();
	});
	afterEach(async () => {
		await receiver.server.close();
		await origin.close();
		await store.cleanup();
	});

	it('a watch with a failing json://…?token=, +Header, ntfy token, password and signed webhook: stderr, ' +
		'/healthz, /metrics, the outbox and revisit stats mask them; the receiver gets them once it is back', async () => {
		const at = `127.0.0.1:${receiver.port}`;
		const json = `json://${at}/j?token=${TOKEN}&+X-Api-Key=${HEADER}`;
		const ntfy = `ntfy://${at}/prices?token=${NTFY}`;
		const mail = `json://u:x@${at}/m?to=a@example.org`;
		const webhook = `http://${at}/hook?sig=${HOOK}`;
		const targets = ['--notify', json, '--notify', ntfy, '--notify', mail, '--webhook', webhook];
		const shown = [
			`notify json://${at}/j?token=***&+X-Api-Key=***`,
			`notify ntfy://${at}/prices?token=***`,
			`notify json://u:***@${at}/m?to=a@example.org`,
			`webhook http://${at}`,
		];

		// A delivery to the json:// target two minutes old: /healthz names a target late past a minute.
		const [seeded] = outboxTargets({ notify: { urls: [json] } });
		const before = await openStore(store.dir);
		const old = Date.now() - 120_000;
		await before.batch([
			{
				type: 'putDelivery',
				key: `${seeded!.id}/${String(old).padStart(13, '0')}-00000000-00000000`,
				value: { v: RECORD_VERSION, target: seeded!.id, shown: seeded!.shown, at: old, payload: MESSAGE },
			},
		]);
		await before.close();

		const page = origin.url(`/p0?sig=page-signature`);
		const urls = [page, origin.url('/p1')];
		const watch = spawnCli(['watch', '--store', store.dir, ...EVERY_SECOND, '--listen', '127.0.0.1:0', ...targets, ...QUIET], urls.join('\n'));
		let watched: Awaited<typeof watch.done> | undefined;
		try {
			await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+\//.test(watch.stderr()), 'the watch to say where it listens');
			const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(watch.stderr())![1]);
			await waitFor(() => new Set(ndjson(watch.stdout()).map((verdict) => verdict.url)).size === 2, 'both pages judged once');
			origin.change('/p0?sig=page-signature');
			await waitFor(() => (watch.stderr().match(/cannot deliver/g) ?? []).length === 4, 'each of the four targets failing once');

			const health = await getWithHost(port, '/healthz', `127.0.0.1:${port}`);
			expect(health.body).toContain(`degraded: ${shown[0]}: `);
			// 1 or 2: the count is read again from the store after each failed attempt.
			expect(health.body).toMatch(/: [12] deliver(y|ies) pending for \d+ s \(answered 503\)\n$/);
			noSecret('/healthz', health.body);
			const metrics = (await getWithHost(port, '/metrics', `127.0.0.1:${port}`)).body;
			for (const target of shown) expect(metrics).toContain(`revisit_deliveries_pending{target="${target}"}`);
			noSecret('/metrics', metrics);
			// Read through the watch's socket while it holds the store.
			const stats = await spawnCli(['stats', '--store', store.dir], '').done;
			expect(stats.stdout).toContain(`${shown[0]}  2 pending`);
			for (const target of shown.slice(1)) expect(stats.stdout).toContain(`${target}  1 pending`);
			noSecret('revisit stats', stats.stdout + stats.stderr);
		} finally {
			watch.child.kill('SIGTERM');
			watched = await watch.done;
		}
		expect(watched.status).toBe(0);
		for (const target of shown) expect(watched.stderr).toContain(`${target}: cannot deliver (answered 503)`);
		expect(watched.stderr.split('\n').find((line) => line.includes(`${shown[0]}: `) && line.includes('kept in the store'))).toMatch(
			/: [12] deliver(y|ies) pending, kept in the store/,
		);
		noSecret("the watch's stderr", watched.stderr);
		// Data stays exact: the page's own query is printed as it is.
		expect(ndjson(watched.stdout).map((verdict) => verdict.url)).toContain(page);

		const after = await openStore(store.dir);
		const kept: Delivery[] = [];
		for await (const [, delivery] of after.deliveryEntries()) kept.push(delivery);
		await after.close();
		expect(kept).toHaveLength(5);
		expect(new Set(kept.map((delivery) => delivery.shown))).toEqual(new Set(shown));

		// Back: a sweep with the same targets delivers what the watch kept, with the real secrets.
		receiver.up();
		const sweep = await spawnCli(['sweep', '--store', store.dir, ...targets, ...QUIET], urls.join('\n')).done;
		expect(sweep.status).toBe(0);
		noSecret("the sweep's stderr", sweep.stderr);
		const to = (path: string) => receiver.taken.filter((request) => request.path === path);
		expect(to('/j').map((request) => request.apiKey)).toEqual([HEADER, HEADER]);
		expect(to('/').map((request) => request.authorization)).toEqual([`Bearer ${NTFY}`]);
		expect(to('/m').map((request) => request.authorization)).toEqual([`Basic ${Buffer.from('u:x').toString('base64')}`]);
		expect(to(`/hook?sig=${HOOK}`)).toHaveLength(1);
		const stats = await spawnCli(['stats', '--store', store.dir], '').done;
		expect(stats.stdout).not.toContain('Pending deliveries');
	}, 90_000);
});
