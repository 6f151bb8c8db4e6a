import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PAGES = 1500;

describe('revisit sweep killed with SIGKILL', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	const version = new Map<string, number>();
	beforeEach(async () => {
		server = await startServer((req, res) => {
			const v = version.get(req.url ?? '') ?? 0;
			const tag = `"${v}"`;
			// A little latency, so that the kill lands while most of the run is still ahead.
			setTimeout(() => {
				if (req.headers['if-none-match'] === tag) res.writeHead(304, { etag: tag }).end();
				else res.writeHead(200, { etag: tag }).end(`${req.url} version ${v}`);
			}, 2);
		});
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});

	it('loses no change: the next run reports everything the killed run had not printed', async () => {
		const urls = Array.from({ length: PAGES }, (_, i) => server.url(`/p${i}`));
		const input = `${urls.join('\n')}\n`;
		const args = ['sweep', '--store', store.dir, '-q', '--concurrency', '8', '--per-host', '8'];
		const first = await spawnCli(args, input).done;
		expect(first.status).toBe(0);

		const edited = urls.filter((_, i) => i % 3 === 0);
		for (const url of edited) version.set(new URL(url).pathname, 1);

		const killed = spawnCli(args, input);
		await new Promise<void>((resolve) => {
			const timer = setInterval(() => {
				if (killed.stdout().split('\n').length > 40) {
					clearInterval(timer);
					killed.child.kill('SIGKILL');
					resolve();
				}
			}, 1);
		});
		const partial = await killed.done;
		expect(partial.signal).toBe('SIGKILL');

		const rerun = await spawnCli(args, input).done;
		expect(rerun.status).toBe(0);
		const partialLines = partial.stdout.split('\n').filter(Boolean);
		const rerunLines = rerun.stdout.split('\n').filter(Boolean);
		// The kill came partway: both runs reported some of the edits.
		expect(partialLines.length).toBeGreaterThan(0);
		expect(partialLines.length).toBeLessThan(edited.length);
		expect(rerunLines.length).toBeGreaterThan(0);
		expect(new Set([...partialLines, ...rerunLines])).toEqual(new Set(edited));
	}, 120_000);
});
