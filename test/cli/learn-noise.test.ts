import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('--learn-noise', () => {
	let server: TestServer;
	const price = new Map<string, number>();
	let served = 0;
	beforeAll(async () => {
		// A per-request nonce, CSRF token, timestamp and rotating ad; no rules anywhere.
		server = await startServer((req, res) => {
			served++;
			res
				.writeHead(200, { 'content-type': 'text/html' })
				.end(
					`<html><head><script>var nonce = "${Math.random()}";</script></head><body>` +
						`<input type="hidden" name="csrf" value="${Math.random().toString(36).slice(2)}${served}">` +
						`<p>Generated at ${new Date(Date.UTC(2026, 11, 4) + served * 61_000).toISOString()}</p>` +
						`<div class="ad">${['Shoes', 'Hats', 'Coats'][served % 3]}</div><p class="price">$${price.get(req.url!) ?? 10}</p></body></html>`,
				);
		});
	});
	afterAll(() => server.close());

	it('reports nothing over 5 runs of pages that differ on every fetch, and a real edit in the run it happens', async () => {
		const dir = await tempDir('revisit-noise-');
		try {
			const store = path.join(dir.dir, 'store');
			const urls = ['/a', '/b', '/c'].map((p) => server.url(p));
			const sweep = () => runCli(['sweep', '--store', store, '--learn-noise', '--audit', '0'], urls.join('\n'));
			const first = await sweep();
			expect(first.stdout.trim().split('\n')).toHaveLength(3);
			expect(first.stderr).toMatch(/3 URLs, 3 changed, .*3 second fetches for noise/);
			expect(server.requests).toHaveLength(6);
			for (let run = 2; run <= 5; run++) {
				if (run === 4) price.set('/b', 12);
				const { stdout, stderr } = await sweep();
				expect(stdout.trim().split('\n').filter(Boolean)).toEqual(run === 4 ? [server.url('/b')] : []);
				// Only a changed page is fetched twice.
				expect(stderr).toMatch(run === 4 ? /1 second fetch for noise/ : /^(?!.*second fetch)/);
			}
			const noisy = ndjson((await runCli(['stats', '--store', store, '--json'])).stdout);
			expect(noisy).toMatchObject([{ host: server.origin, noisy: 3 }]);
			const record = ndjson((await runCli(['export', '--store', store])).stdout).find((row) => row.key === server.url('/a'))!.value as { learned: unknown[] };
			expect(record.learned.length).toBeGreaterThan(0);
		} finally {
			await dir.cleanup();
		}
	});

	it('a fetch leaves out the noise a sweep learnt: sweep --candidates | fetch stays quiet', async () => {
		const dir = await tempDir('revisit-noise-fetch-');
		try {
			const store = path.join(dir.dir, 'store');
			const urls = [server.url('/f1'), server.url('/f2')].join('\n');
			expect((await runCli(['sweep', '--store', store, '--learn-noise', '-q', '--audit', '0'], urls)).status).toBe(0);
			const fetched = await runCli(['fetch', '--store', store, '--out', path.join(dir.dir, 'pages'), '-q'], urls);
			expect(fetched.status).toBe(0);
			expect(fetched.stdout).toBe('');
			price.set('/f2', 30);
			expect((await runCli(['fetch', '--store', store, '--out', path.join(dir.dir, 'pages'), '-q'], urls)).stdout.trim()).toBe(server.url('/f2'));
		} finally {
			await dir.cleanup();
		}
	});

	it("is a sweep's: fetch and crawl refuse it with exit 2 and say where it belongs, sending nothing", async () => {
		const dir = await tempDir();
		try {
			const before = served;
			for (const args of [
				['fetch', '--ndjson'],
				['crawl', '--out', path.join(dir.dir, 'out')],
			]) {
				const run = await runCli([...args, '--store', path.join(dir.dir, 'store'), '--learn-noise', server.url('/a')]);
				expect(run.status).toBe(2);
				expect(run.stderr).toContain("--learn-noise is a sweep's: revisit sweep --learn-noise");
			}
			expect(served).toBe(before);
		} finally {
			await dir.cleanup();
		}
	});
});
