import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';

describe('revisit sweep (smoke)', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		server = await startServer((req, res) => {
			const tag = `"t${req.url}"`;
			if (req.headers['if-none-match'] === tag) {
				res.writeHead(304, { etag: tag }).end();
				return;
			}
			res.writeHead(200, { etag: tag }).end(`body ${req.url}`);
		});
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});

	it('reports a URL as new, then as unchanged through a 304', async () => {
		const first = await runCli(['sweep', '--store', store.dir, '-q'], `${server.url('/a')}\n`);
		expect(first).toMatchObject({ status: 0, stdout: `${server.url('/a')}\n` });
		const second = await runCli(['sweep', '--store', store.dir, '--ndjson', '--all', '-q'], `${server.url('/a')}\n`);
		expect(ndjson(second.stdout)).toMatchObject([{ url: server.url('/a'), changed: false, reason: '304' }]);
		expect(server.seen('/a')[1]?.headers['if-none-match']).toBe('"t/a"');
	});
});
