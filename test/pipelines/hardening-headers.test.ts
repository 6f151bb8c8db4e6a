import { describe, expect, it } from 'vitest';
import type { HostStats } from '../../src/net/hosts/stats.js';
import { runCli } from '../helpers/cli.js';
import { readStore, sweepRun, useFixtures, verdictFor } from './fixtures.js';
import { respond, useRawServers } from './hardening-servers.js';

/**
 * Validators that must never be stored or echoed back in a request header: control
 * characters, an obs-fold, a bare CR (Node's parser refuses the whole response: an error
 * verdict), and one over 1 KiB (the response is fine, the validator is dropped and
 * counted, and the body hash decides).
 */
describe('sweep against a server that puts hostile bytes in its validators', () => {
	const fx = useFixtures();
	const raw = useRawServers();
	const LONG_ETAG = `"${'x'.repeat(2000)}"`;
	const LONG_DATE = `Fri, 01 Mar 2024 10:00:00 GMT${' '.repeat(1100)}x`;

	it('never stores, never echoes, and counts them on the host row', async () => {
		const server = await raw.start();
		const hostile: Record<string, { header: string; code?: string }> = {
			'/control': { header: 'etag: "a\x01b"', code: 'HPE_INVALID_HEADER_TOKEN' },
			'/obs-fold': { header: 'etag: "a\r\n\tSet-Cookie: injected=1"', code: 'HPE_INVALID_HEADER_TOKEN' },
			'/bare-cr': { header: 'etag: "a\rSet-Cookie: injected=1"', code: 'HPE_LF_EXPECTED' },
			'/long-etag': { header: `etag: ${LONG_ETAG}` },
			'/long-date': { header: `last-modified: ${LONG_DATE}` },
		};
		for (const [path, { header }] of Object.entries(hostile)) server.on(path, (socket) => respond(socket, '200 OK', [header], `page ${path}`));
		server.on('/fine', (socket, request) =>
			request.headers['if-none-match'] === '"fine"'
				? respond(socket, '304 Not Modified', ['etag: "fine"'])
				: respond(socket, '200 OK', ['etag: "fine"'], 'fine'),
		);
		const urls = [...Object.keys(hostile), '/fine'].map((path) => server.url(path));

		for (const round of [1, 2]) {
			const seen = server.requests.length;
			const run = await sweepRun(fx.dir, urls, ['--retries', '0']);
			expect(run.status).toBe(1);
			for (const [path, { code }] of Object.entries(hostile)) {
				const verdict = verdictFor(run, server.url(path));
				if (code) {
					expect(verdict, path).toMatchObject({ changed: false, reason: 'error', error: { code } });
					expect(run.stderr).toContain(`${server.url(path)}: ${code}: `);
				} else {
					expect(verdict, path).toMatchObject({ changed: round === 1, reason: round === 1 ? 'new' : 'same-hash', status: 200 });
					expect(verdict).not.toHaveProperty('etag');
					expect(verdict).not.toHaveProperty('lastModified');
				}
			}
			expect(verdictFor(run, server.url('/fine'))).toMatchObject({ reason: round === 1 ? 'new' : '304' });
			// Only the well-behaved page ever gets a validator back.
			const requests = server.requests.slice(seen);
			expect(requests).toHaveLength(urls.length);
			for (const request of requests) {
				const conditional = request.headers['if-none-match'] ?? request.headers['if-modified-since'];
				expect(conditional, request.path).toBe(round === 2 && request.path === '/fine' ? '"fine"' : undefined);
				expect(request.headers).not.toHaveProperty('cookie');
			}
		}

		const records = await readStore(fx.dir, urls);
		expect(records.slice(0, 3)).toEqual([undefined, undefined, undefined]);
		for (const record of records.slice(3, 5)) {
			expect(record).toMatchObject({ status: 200 });
			expect(record).not.toHaveProperty('etag');
			expect(record).not.toHaveProperty('lastModified');
		}

		const json = await runCli(['stats', '--store', fx.dir, '--json']);
		const row = JSON.parse(json.stdout) as HostStats;
		// Two long validators a run, over two runs; the three refused responses are errors.
		expect(row).toMatchObject({ host: server.origin, badValidators: 4, errors: 6 });
		const table = await runCli(['stats', '--store', fx.dir]);
		expect(table.stdout).toContain('4 unsafe validators refused');
	});

	it('keeps the good validator stored before a page turned hostile, and goes on sending only that', async () => {
		const server = await raw.start();
		server.on('/page', (socket) => respond(socket, '200 OK', ['etag: "good"'], 'the page'));
		const url = server.url('/page');
		expect((await sweepRun(fx.dir, [url])).status).toBe(0);
		const [before] = await readStore(fx.dir, [url]);
		expect(before).toMatchObject({ etag: '"good"' });

		server.on('/page', (socket) => respond(socket, '200 OK', ['etag: "bad\x7f"'], 'the page'));
		for (let i = 0; i < 2; i++) {
			const run = await sweepRun(fx.dir, [url], ['--retries', '0']);
			expect(run.status).toBe(1);
			expect(verdictFor(run, url)).toMatchObject({ reason: 'error', error: { code: 'HPE_INVALID_HEADER_TOKEN' } });
		}
		expect(server.seen('/page').map((request) => request.headers['if-none-match'])).toEqual([undefined, '"good"', '"good"']);
		expect(await readStore(fx.dir, [url])).toEqual([before]);
	});
});
