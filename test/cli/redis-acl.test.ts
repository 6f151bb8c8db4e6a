import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ndjson, runCli, spawnCli } from '../helpers/cli.js';
import { startWorkers } from '../helpers/fleet.js';
import { describeRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { startWatchOrigin, type WatchOrigin } from '../helpers/watch-origin.js';
import { waitFor } from '../helpers/wait-for.js';

const DOC = fileURLToPath(new URL('../../docs/14-scaling-out.md', import.meta.url));

/** The `redis-cli ACL SETUSER …` line docs/14-scaling-out.md gives, as redis-cli's arguments (its shell quotes taken off). */
async function aclFromDocs(password: string): Promise<string[]> {
	const line = (await readFile(DOC, 'utf8')).split('\n').find((text) => text.startsWith('redis-cli ACL SETUSER '));
	if (line === undefined) throw new Error('docs/14-scaling-out.md gives no redis-cli ACL SETUSER line');
	return (line.match(/'[^']*'|\S+/g) ?? []).slice(1).map((token) => token.replace(/^'(.*)'$/, '$1').replace('PASSWORD', password));
}

describeRedis('the Redis ACL user docs/14-scaling-out.md gives', () => {
	let redis: TestRedis;
	let origin: WatchOrigin;
	const password = randomBytes(12).toString('hex');
	beforeAll(async () => {
		redis = await startRedis();
		origin = await startWatchOrigin(0);
	});
	afterAll(async () => {
		await origin?.close();
		await redis?.stop();
	});

	it('is enough for a sweep, the reading commands, a watch and a fleet, and Redis refuses it nothing; it may do nothing else', async () => {
		expect((await redis.cli(await aclFromDocs(password))).trim()).toBe('OK');
		await redis.cli(['ACL', 'LOG', 'RESET']);
		// Database 1: the client selects it.
		const store = `redis://revisit:${password}@127.0.0.1:${redis.port}/1`;
		const urls = Array.from({ length: 4 }, (_, i) => origin.url(`/p${i}`));
		const flags = ['--store', store, '--robots', 'ignore', '--audit', '0'];

		const first = await spawnCli(['sweep', ...flags, '--keep-versions', '2'], urls.join('\n')).done;
		expect(first).toMatchObject({ status: 0, stderr: expect.stringContaining('4 URLs, 4 changed') as unknown });
		origin.change('/p1');
		const second = await spawnCli(['sweep', ...flags, '--keep-versions', '2', '-q'], urls.join('\n')).done;
		expect(second).toMatchObject({ status: 0, stdout: `${urls[1]}\n` });
		expect(ndjson((await runCli(['stats', '--json', '--store', store])).stdout)).toEqual([expect.objectContaining({ urls: 4 })]);
		expect(ndjson((await runCli(['history', '--json', '--store', store])).stdout)).toHaveLength(2);
		expect((await runCli(['log', urls[1]!, '--store', store])).status).toBe(0);
		expect(ndjson((await runCli(['export', '--store', store])).stdout).filter((line) => line.kind === 'url')).toHaveLength(4);
		expect((await runCli(['prune', '--older-than', '1d', '--store', store])).status).toBe(0);

		// Pages new to the store: the watch checks them at once.
		const watched = Array.from({ length: 4 }, (_, i) => origin.url(`/w${i}`));
		const watch = spawnCli(['watch', ...flags, '--rate', '100/s', '--ndjson', '-q'], watched.join('\n'));
		try {
			await waitFor(() => ndjson(watch.stdout()).length >= 4, 'the watch to check its four pages');
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);

		const workers = await startWorkers(store, 1);
		try {
			origin.change('/p2');
			const fleet = await spawnCli(['sweep', ...flags, '--workers', '-q'], urls.join('\n')).done;
			expect(fleet).toMatchObject({ status: 0, stdout: `${urls[2]}\n` });
		} finally {
			await Promise.all(workers.map((worker) => worker.stop()));
		}

		expect((await redis.cli(['ACL', 'LOG'])).trim()).toBe('');
		// And the user is held to the list: nothing else, no key outside its prefix.
		const as = ['--user', 'revisit', '--pass', password, '--no-auth-warning'];
		expect(await redis.cli([...as, 'FLUSHALL'])).toContain('NOPERM');
		expect(await redis.cli([...as, 'GET', 'elsewhere'])).toContain('NOPERM');
	}, 120_000);
});
