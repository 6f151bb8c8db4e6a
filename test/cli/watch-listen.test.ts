import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startWatchOrigin, type WatchOrigin } from '../helpers/watch-origin.js';
import { getWithHost as get } from '../helpers/listening.js';

const QUIET = ['--robots', 'ignore', '--audit', '0', '-q'];

describe('revisit watch --listen and the Host header', () => {
	let origin: WatchOrigin;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		store = await tempDir();
		origin = await startWatchOrigin(0);
	});
	afterEach(async () => {
		await origin.close();
		await store.cleanup();
	});

	it('answers its own address and the --listen-host names, and refuses any other Host with 421 on every path', async () => {
		const watch = spawnCli(
			[
				'watch',
				'--store',
				store.dir,
				'--rate',
				'10/s',
				'--listen',
				'127.0.0.1:0',
				'--listen-host',
				'watch.example',
				'--listen-host',
				'metrics.internal',
				...QUIET,
			],
			origin.url('/p0'),
		);
		try {
			const port = await new Promise<number>((resolve, reject) => {
				let said = '';
				watch.child.stderr.on('data', (chunk: Buffer) => {
					said += chunk.toString();
					const at = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(said);
					if (at) resolve(Number(at[1]));
				});
				watch.child.on('close', () => reject(new Error(`the watch ended before it said where it listens: ${said}`)));
			});
			for (const path of ['/', '/metrics', '/healthz']) {
				const refused = await get(port, path, 'evil.example');
				expect(refused.status, path).toBe(421);
				expect(refused.body).toBe(
					`this server answers only requests whose Host is 127.0.0.1:${port}, localhost:${port}, watch.example, metrics.internal; ` +
						`--listen-host NAME adds a name\n`,
				);
				for (const host of [`127.0.0.1:${port}`, 'watch.example', `metrics.internal:${port}`])
					expect((await get(port, path, host)).status, `${host}${path}`).toBe(200);
			}
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
	}, 30_000);

	it('refuses --listen-host without --listen: exit 2, nothing checked', async () => {
		const result = await runCli(['watch', '--store', store.dir, '--listen-host', 'watch.example', ...QUIET], origin.url('/p0'));
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('--listen-host names what --listen answers to: it needs --listen HOST:PORT');
		expect(origin.hits).toEqual([]);
	});
});
