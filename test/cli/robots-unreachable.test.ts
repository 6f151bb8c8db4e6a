import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// A host that is down, as a user with robots.txt obeyed (the default) meets it: its
// robots.txt cannot be had, so its URLs are deferred, and that is not a success.

/** An origin on 127.0.0.1 where nothing listens: a server started and closed. */
async function closedOrigin(): Promise<string> {
	const server = await startServer((_req, res) => res.end());
	await server.close();
	return server.origin;
}

describe('a host that is down, robots.txt obeyed', () => {
	let store: { dir: string; cleanup(): Promise<void> };
	let server: TestServer | undefined;
	beforeEach(async () => {
		store = await tempDir();
	});
	afterEach(async () => {
		await server?.close();
		server = undefined;
		await store.cleanup();
	});

	it('exits 1, names each URL and ECONNREFUSED on stderr under --ndjson without --all, and says why in the summary', async () => {
		const origin = await closedOrigin();
		const url = `${origin}/`;
		const { status, stdout, stderr } = await runCli(['sweep', '--store', store.dir, '--ndjson', '--retries', '0', '--robots', 'obey'], `${url}\n`);
		expect(status).toBe(1);
		expect(stdout).toBe('');
		expect(stderr).toMatch(new RegExp(`^revisit: ${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ECONNREFUSED: robots.txt answered ECONNREFUSED`, 'm'));
		expect(stderr).toContain('1 not checked: robots.txt unreachable (ECONNREFUSED), deferred to the next run');
	});

	it('prints the deferred verdict with its error under --all, and fails a run whose other host is fine', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.writeHead(404).end() : res.end(`page ${req.url}`)));
		const down = `${await closedOrigin()}/x`;
		const { status, stdout, stderr } = await runCli(
			['sweep', '--store', store.dir, '--ndjson', '--all', '--retries', '0', '--robots', 'obey'],
			[server.url('/a'), down].join('\n'),
		);
		expect(status).toBe(1);
		const verdicts = Object.fromEntries(ndjson(stdout).map((verdict) => [verdict.url as string, verdict]));
		expect(verdicts[server.url('/a')]).toMatchObject({ reason: 'new', changed: true });
		expect(verdicts[down]).toMatchObject({ reason: 'deferred', changed: false, error: { code: 'ECONNREFUSED' } });
		expect(stderr).toMatch(/^revisit: 2 URLs, 1 changed, .*, 0 errors, 1 not checked: robots\.txt unreachable \(ECONNREFUSED\)/m);
	});

	it('exits 0 when every host answers, robots.txt a 404 included', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.writeHead(404).end() : res.end(`page ${req.url}`)));
		const { status, stderr } = await runCli(['sweep', '--store', store.dir, '--ndjson', '--robots', 'obey'], server.url('/a'));
		expect(status).toBe(0);
		expect(stderr).not.toContain('not checked');
	});
});
