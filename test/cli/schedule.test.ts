import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('revisit sweep: churn guard, schedule, history', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let version = 0;
	beforeEach(async () => {
		version = 0;
		server = await startServer((req, res) => res.end(`${req.url} v${req.url === '/stable' ? 0 : version}`));
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});
	const urls = Array.from({ length: 25 }, (_, i) => `/p${i}`);
	const input = () => urls.map((path) => `${server.url(path)}\n`).join('');
	const sweep = (args: string[], stdin = input()) => runCli(['sweep', '--store', store.dir, '--audit', '0', ...args], stdin);

	it('holds back a host whose known URLs all changed, exits 3 naming it, and releases the changes with --accept-churn', async () => {
		await sweep(['-q']);
		version = 1;
		const blocked = await sweep([]);
		expect(blocked.status).toBe(3);
		expect(blocked.stdout).toBe('');
		expect(blocked.stderr).toContain(`${server.origin}: 20 of its first 20 known URLs changed: changes held back (churn guard)`);
		const stats = await runCli(['stats', '--store', store.dir, '--json']);
		expect(JSON.parse(stats.stdout)).toMatchObject({ host: server.origin, blocked: true });

		const again = await sweep(['-q']);
		expect(again.status).toBe(3);
		const accepted = await sweep(['-q', '--accept-churn', server.origin]);
		expect(accepted.status).toBe(0);
		expect(accepted.stdout.split('\n').filter(Boolean)).toHaveLength(25);
		expect(JSON.parse((await runCli(['stats', '--store', store.dir, '--json'])).stdout)).toMatchObject({ blocked: false });
	});

	it('lets a host through when fewer than RATIO of its known URLs changed, and is off with --max-churn 0', async () => {
		await sweep(['-q']);
		version = 1;
		expect((await sweep(['-q', '--max-churn', '0'])).stdout.split('\n').filter(Boolean)).toHaveLength(25);
		version = 2;
		const stable = `${server.url('/stable')}\n`;
		await sweep(['-q'], stable + input().split('\n').slice(0, 2).join('\n'));
		expect((await sweep(['-q', '--churn-min', '3'], stable + input().split('\n').slice(0, 2).join('\n'))).status).toBe(0);
	});

	it('skips URLs not due under --ttl, counts them, and lists due ones with revisit due', async () => {
		await sweep(['-q', '--ttl', '1h'], `${server.url('/a')}\n`);
		const soon = await sweep(['--ttl', '1h'], `${server.url('/a')}\n${server.url('/b')}\n`);
		expect(soon.stdout).toBe(`${server.url('/b')}\n`);
		expect(soon.stderr).toContain('1 not due');
		expect(server.seen('/a')).toHaveLength(1);
		expect((await runCli(['due', '--store', store.dir])).stdout).toBe('');
		expect((await runCli(['due', '--store', store.dir, '--ttl', '1h'])).stdout).toBe('');
		const db = await LevelStore.open(store.dir);
		const [record] = await db.getMany([server.url('/a')]);
		await db.batch([{ type: 'put', key: server.url('/a'), value: { ...record!, nextDue: Date.now() - 1 } }]);
		await db.close();
		expect((await runCli(['due', '--store', store.dir])).stdout).toBe(`${server.url('/a')}\n`);
	});

	it('stores one history row per run with its true counts', async () => {
		await sweep(['-q']);
		await sweep(['-q']);
		const db = await LevelStore.open(store.dir);
		const rows = [];
		for await (const [, row] of db.runEntries()) rows.push(row);
		await db.close();
		expect(rows).toHaveLength(2);
		expect(rows[0]).toMatchObject({ urls: 25, changed: 25, sameHash: 0, errors: 0 });
		expect(rows[1]).toMatchObject({ urls: 25, changed: 0, sameHash: 25, hosts: { [server.origin]: { urls: 25, changed: 0 } } });
		expect(rows[1]!.endedAt).toBeGreaterThanOrEqual(rows[1]!.startedAt);
	});
});
