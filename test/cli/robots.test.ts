import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// robots.txt as a whole run sees it: real servers on 127.0.0.1, the CLI in-process. The
// suite runs with REVISIT_ROBOTS=ignore (vitest.config.ts): these runs pass --robots obey,
// and the last sweep test runs the built CLI with the variable empty, to check the default.

const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/ok.html\nCrawl-delay: 1\n';

describe('robots.txt (RFC 9309) in a sweep', () => {
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
	const sweep = (urls: string[], extra: string[] = []) =>
		runCli(['sweep', '--store', store.dir, '--ndjson', '--all', '--robots', 'obey', ...extra], urls.join('\n'));
	const page = (res: http.ServerResponse, req: http.IncomingMessage) => res.end(`page ${req.url}`);
	const byUrl = (stdout: string) => Object.fromEntries(ndjson(stdout).map((verdict) => [verdict.url as string, verdict]));

	it('skips disallowed URLs (reason robots, no request), checks the allowed one, keeps Crawl-delay, and revalidates robots.txt with a 304', async () => {
		const arrivals: number[] = [];
		server = await startServer((req, res) => {
			arrivals.push(Date.now());
			if (req.url === '/robots.txt') {
				if (req.headers['if-none-match'] === '"r1"') return void res.writeHead(304, { etag: '"r1"' }).end();
				// max-age=0: the next run asks again (without it a copy serves 24 h).
				return void res.writeHead(200, { 'content-type': 'text/plain', etag: '"r1"', 'cache-control': 'max-age=0' }).end(ROBOTS);
			}
			page(res, req);
		});
		const urls = [server.url('/a'), server.url('/private/x'), server.url('/private/ok.html'), server.url('/private/y')];
		const first = await sweep(urls);
		expect(first.status).toBe(0);
		const verdicts = byUrl(first.stdout);
		expect(verdicts[server.url('/private/x')]).toEqual({ url: server.url('/private/x'), changed: false, reason: 'robots' });
		expect(verdicts[server.url('/private/y')]).toMatchObject({ changed: false, reason: 'robots' });
		expect(verdicts[server.url('/private/ok.html')]).toMatchObject({ changed: true, reason: 'new', status: 200 });
		expect(verdicts[server.url('/a')]).toMatchObject({ changed: true, reason: 'new' });
		expect(server.seen('/private/x')).toHaveLength(0);
		expect(server.seen('/private/y')).toHaveLength(0);
		expect(server.requests.map((request) => request.path).sort()).toEqual(['/a', '/private/ok.html', '/robots.txt']);
		expect(first.stderr).toContain('2 disallowed by robots.txt');
		expect(first.stderr).toContain('--robots ignore');
		// Crawl-delay: 1 is the smallest gap between two requests to the origin (robots.txt's
		// own included); 20 ms of slack for the way from the limiter's start to the server.
		const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
		expect(gaps).toHaveLength(2);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(980);

		const second = await sweep(urls);
		expect(second.status).toBe(0);
		const robots = server.seen('/robots.txt');
		expect(robots).toHaveLength(2);
		expect(robots[1]!.headers['if-none-match']).toBe('"r1"');
		expect(byUrl(second.stdout)[server.url('/private/x')]).toMatchObject({ reason: 'robots' });
		expect(server.seen('/private/x')).toHaveLength(0);
		expect(byUrl(second.stdout)[server.url('/private/ok.html')]).toMatchObject({ changed: false, reason: 'same-hash' });
	}, 30_000);

	it('uses a fresh stored copy without asking again (robots.txt at most once per origin per run, and per 24 h)', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nDisallow: /no\n') : page(res, req)));
		const urls = [server.url('/a'), server.url('/b'), server.url('/no')];
		await sweep(urls, ['--concurrency', '8']);
		await sweep(urls);
		expect(server.seen('/robots.txt')).toHaveLength(1);
		expect(server.seen('/no')).toHaveLength(0);
	});

	it('defers every URL when robots.txt answers 503 (no page request, exit 1, a line per URL), and checks them next run', async () => {
		let healthy = false;
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void (healthy ? res.writeHead(404).end() : res.writeHead(503).end());
			page(res, req);
		});
		const urls = [server.url('/a'), server.url('/b'), server.url('/c')];
		const first = await sweep(urls);
		// Not checked because something failed: not a success.
		expect(first.status).toBe(1);
		expect(ndjson(first.stdout).map((verdict) => verdict.reason)).toEqual(['deferred', 'deferred', 'deferred']);
		expect(ndjson(first.stdout).every((verdict) => verdict.changed === false && (verdict.error as { code: string }).code === 'HTTP_503')).toBe(true);
		expect(server.requests.map((request) => request.path)).toEqual(['/robots.txt']);
		const lines = first.stderr.split('\n').filter((line) => line.includes(server!.origin));
		expect(lines.map((line) => line.slice(0, line.indexOf(': HTTP_503: ')))).toEqual(urls.map((url) => `revisit: ${url}`));
		expect(lines[0]).toContain('robots.txt answered HTTP 503');
		expect(first.stderr).toContain('3 not checked: robots.txt unreachable (HTTP_503), deferred to the next run');

		healthy = true;
		const second = await sweep(urls);
		expect(second.status).toBe(0);
		expect(ndjson(second.stdout).map((verdict) => verdict.reason)).toEqual(['new', 'new', 'new']);
		expect(server.seen('/a')).toHaveLength(1);
	});

	it('allows everything when robots.txt answers 404', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.writeHead(404).end('no') : page(res, req)));
		const { status, stdout } = await sweep([server.url('/private/x'), server.url('/a')]);
		expect(status).toBe(0);
		expect(ndjson(stdout).map((verdict) => verdict.reason)).toEqual(['new', 'new']);
	});

	it('follows a robots.txt that redirects', async () => {
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(301, { location: '/moved/robots.txt' }).end();
			if (req.url === '/moved/robots.txt') return void res.end('User-agent: revisit\nDisallow: /private/\n');
			page(res, req);
		});
		const { stdout } = await sweep([server.url('/private/x'), server.url('/a')]);
		expect(byUrl(stdout)[server.url('/private/x')]).toMatchObject({ reason: 'robots' });
		expect(byUrl(stdout)[server.url('/a')]).toMatchObject({ reason: 'new' });
		expect(server.seen('/moved/robots.txt')).toHaveLength(1);
		expect(server.seen('/private/x')).toHaveLength(0);
	});

	it('stops parsing a 600 KiB robots.txt at 500 KiB: the rules past it are ignored', async () => {
		const head = 'User-agent: *\nDisallow: /early/\n';
		const filler = `# ${'x'.repeat(1021)}\n`.repeat(Math.ceil((510 * 1024) / 1024));
		const body = `${head}${filler}Disallow: /late/\n${`# ${'y'.repeat(1021)}\n`.repeat(80)}`;
		expect(body.length).toBeGreaterThan(590 * 1024);
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end(body) : page(res, req)));
		const { stdout } = await sweep([server.url('/early/x'), server.url('/late/x')]);
		expect(byUrl(stdout)[server.url('/early/x')]).toMatchObject({ reason: 'robots' });
		expect(byUrl(stdout)[server.url('/late/x')]).toMatchObject({ reason: 'new' });
	});

	it('takes the product token from --user-agent, and --robots-agent overrides it', async () => {
		server = await startServer((req, res) =>
			req.url === '/robots.txt' ? res.end('User-agent: otherbot\nDisallow: /\n\nUser-agent: mybot\nDisallow: /m\n') : page(res, req),
		);
		const urls = [server.url('/m'), server.url('/x')];
		const ua = await sweep(urls, ['--user-agent', 'MyBot/1.0 (+https://example.test)']);
		expect(
			ndjson(ua.stdout)
				.map((verdict) => [verdict.url, verdict.reason])
				.sort(),
		).toEqual([
			[server.url('/m'), 'robots'],
			[server.url('/x'), 'new'],
		]);
		const other = await sweep(urls, ['--robots-agent', 'otherbot']);
		expect(ndjson(other.stdout).map((verdict) => verdict.reason)).toEqual(['robots', 'robots']);
	});

	it('reads robots.txt as the major crawlers do: a cut-short byte order mark, a missing colon, an index page, any --robots-agent name', async () => {
		// EF BB: the start of a byte order mark; the first line also lacks its colon. Read
		// wrong, either makes FooBot fall to the * group, which disallows everything.
		const body = Buffer.concat([
			Buffer.from([0xef, 0xbb]),
			Buffer.from('User-agent FooBot\nDisallow /private/\nAllow: /private/index.html\n\nUser-agent: *\nDisallow: /\n'),
		]);
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end(body) : page(res, req)));
		const urls = [server.url('/a'), server.url('/private/x'), server.url('/private/'), server.url('/private/index.html')];
		const foo = await sweep(urls, ['--robots-agent', 'FooBot']);
		expect(foo.status).toBe(0);
		const reasons = byUrl(foo.stdout);
		expect(Object.fromEntries(urls.map((url) => [url, reasons[url]?.reason]))).toEqual({
			[server.url('/a')]: 'new',
			[server.url('/private/x')]: 'robots',
			[server.url('/private/')]: 'new',
			[server.url('/private/index.html')]: 'new',
		});
		expect(server.seen('/private/x')).toHaveLength(0);
		// A name no User-agent line can give is accepted, and gets the * group, as at Google.
		const spaced = await sweep([server.url('/b')], ['--robots-agent', 'Foo Bar']);
		expect(spaced.status).toBe(0);
		expect(ndjson(spaced.stdout)).toEqual([{ url: server.url('/b'), changed: false, reason: 'robots' }]);
		expect(server.seen('/b')).toHaveLength(0);
	});

	it('defers an origin whose Crawl-delay is above --max-crawl-delay, says so once, and exits 0 (nothing failed)', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nCrawl-delay: 60\n') : page(res, req)));
		const { status, stdout, stderr } = await sweep([server.url('/a'), server.url('/b')], ['--max-crawl-delay', '5']);
		expect(status).toBe(0);
		expect(ndjson(stdout).map((verdict) => [verdict.reason, verdict.error])).toEqual([
			['deferred', undefined],
			['deferred', undefined],
		]);
		expect(stderr.split('\n').filter((line) => line.includes('Crawl-delay 60s'))).toHaveLength(1);
		expect(stderr).toContain('2 not checked: Crawl-delay above --max-crawl-delay, deferred to the next run');
		expect(server.requests.map((request) => request.path)).toEqual(['/robots.txt']);
	});

	it('sends no robots.txt request with --robots ignore', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nDisallow: /\n') : page(res, req)));
		const { stdout } = await runCli(['sweep', '--store', store.dir, '--ndjson', '--all', '--robots', 'ignore'], server.url('/a'));
		expect(ndjson(stdout).map((verdict) => verdict.reason)).toEqual(['new']);
		expect(server.requests.map((request) => request.path)).toEqual(['/a']);
	});

	it('obeys robots.txt by default (REVISIT_ROBOTS unset), and in a pipeline file', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nDisallow: /private/\n') : page(res, req)));
		const { done } = spawnCli(['sweep', '--store', store.dir, '--ndjson', '--all'], [server.url('/private/x'), server.url('/a')].join('\n'), {
			REVISIT_ROBOTS: '',
		});
		const run = await done;
		expect(run.status).toBe(0);
		expect(byUrl(run.stdout)[server.url('/private/x')]).toMatchObject({ reason: 'robots' });
		expect(server.seen('/private/x')).toHaveLength(0);

		const pipeline = path.join(store.dir, 'pipeline.json');
		await writeFile(
			pipeline,
			JSON.stringify({
				store: store.dir,
				source: { type: 'urls', urls: [server.url('/private/y')] },
				stages: [{ use: 'probe', robots: 'obey' }],
				sinks: [{ type: 'stdout', format: 'ndjson', when: 'all' }],
			}),
		);
		const piped = await runCli(['run', pipeline]);
		expect(piped.status).toBe(0);
		expect(ndjson(piped.stdout)).toEqual([{ url: server.url('/private/y'), changed: false, reason: 'robots' }]);
		expect(server.seen('/private/y')).toHaveLength(0);
	});

	it('refuses a $REVISIT_ROBOTS that is neither obey nor ignore as a usage error: exit 2, one line, no request sent', async () => {
		server = await startServer((req, res) => page(res, req));
		const run = await spawnCli(['sweep', '--store', store.dir, '--ndjson'], server.url('/a'), { REVISIT_ROBOTS: 'maybe' }).done;
		expect(run.status).toBe(2);
		expect(run.stderr).toBe('revisit: --robots (or $REVISIT_ROBOTS) must be obey or ignore (got "maybe")\n');
		expect(run.stdout).toBe('');
		expect(server.requests).toHaveLength(0);
	});

	it('obeys robots.txt when worker threads send the requests, and in a crawl', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nDisallow: /private/\n') : page(res, req)));
		const urls = [server.url('/private/x'), server.url('/a'), server.url('/b')];
		const threads = await sweep(urls, ['--local-workers', '2']);
		expect(threads.status).toBe(0);
		expect(byUrl(threads.stdout)[server.url('/private/x')]).toMatchObject({ reason: 'robots' });
		expect(byUrl(threads.stdout)[server.url('/a')]).toMatchObject({ reason: 'new' });
		const out = await tempDir();
		try {
			const crawled = await runCli(
				['crawl', '--store', store.dir, '--out', out.dir, '--robots', 'obey'],
				[server.url('/private/z'), server.url('/c')].join('\n'),
			);
			expect(crawled.status).toBe(0);
			expect(crawled.stderr).toContain('1 disallowed by robots.txt');
			expect(server.seen('/c').length).toBeGreaterThan(0);
		} finally {
			await out.cleanup();
		}
		expect(server.requests.filter((request) => request.path.startsWith('/private/'))).toHaveLength(0);
	});

	it('obeys robots.txt in revisit fetch too', async () => {
		server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nDisallow: /private/\n') : page(res, req)));
		const { status, stdout } = await runCli(
			['fetch', '--store', store.dir, '--ndjson', '--robots', 'obey'],
			[server.url('/private/x'), server.url('/a')].join('\n'),
		);
		expect(status).toBe(0);
		expect(byUrl(stdout)[server.url('/a')]).toMatchObject({ reason: 'new' });
		expect(server.seen('/private/x')).toHaveLength(0);
	});
});

describe('revisit robots check', () => {
	let dir: { dir: string; cleanup(): Promise<void> };
	let file: string;
	beforeEach(async () => {
		dir = await tempDir();
		file = path.join(dir.dir, 'robots.txt');
		await writeFile(file, ROBOTS);
	});
	afterEach(() => dir.cleanup());

	it('prints allowed for each URL and exits 0 when all are', async () => {
		const { status, stdout } = await runCli([
			'robots',
			'check',
			'--robots',
			file,
			'--agent',
			'revisit',
			'https://example.test/a',
			'https://example.test/private/ok.html',
		]);
		expect(status).toBe(0);
		expect(stdout).toBe('https://example.test/a allowed\nhttps://example.test/private/ok.html allowed\n');
	});

	it('exits 1 when any URL is disallowed', async () => {
		const { status, stdout } = await runCli(['robots', 'check', '--robots', file, 'https://example.test/private/x', 'https://example.test/a']);
		expect(status).toBe(1);
		expect(stdout).toBe('https://example.test/private/x disallowed\nhttps://example.test/a allowed\n');
	});

	it('takes any --agent name, compared whole: MJ12bot is not the MJ a User-agent: MJ12bot line names', async () => {
		await writeFile(file, 'User-agent: MJ12bot\nDisallow: /\n');
		const mj = await runCli(['robots', 'check', '--robots', file, '--agent', 'MJ', 'https://example.test/a']);
		expect(mj).toMatchObject({ status: 1, stdout: 'https://example.test/a disallowed\n', stderr: '' });
		const whole = await runCli(['robots', 'check', '--robots', file, '--agent', 'MJ12bot', 'https://example.test/a']);
		expect(whole).toMatchObject({ status: 0, stdout: 'https://example.test/a allowed\n' });
		expect(whole.stderr).toContain('only the * groups apply');
		expect((await runCli(['robots', 'check', '--robots', file, '--agent', ' ', 'https://example.test/a'])).status).toBe(2);
	});

	it('exits 2 when the file cannot be read', async () => {
		const { status } = await runCli(['robots', 'check', '--robots', path.join(dir.dir, 'missing.txt'), 'https://example.test/a']);
		expect(status).toBe(2);
	});
});

describe('revisit robots URL', () => {
	it('shows where the copy came from (fetched, then cached), the group and the rule', async () => {
		const store = await tempDir();
		const server = await startServer((req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nDisallow: /private/\n') : res.end('x')));
		try {
			const first = await runCli(['robots', '--store', store.dir, server.url('/private/x')]);
			expect(first.status).toBe(1);
			expect(first.stdout).toContain('robots.txt: fetched (HTTP 200)');
			expect(first.stdout).toContain('the * group at line 1');
			expect(first.stdout).toContain('rule: line 2: Disallow: /private/');
			const second = await runCli(['robots', '--store', store.dir, server.url('/a')]);
			expect(second.status).toBe(0);
			expect(second.stdout).toContain('robots.txt: cached');
			expect(second.stdout).toContain(`${server.url('/a')} allowed`);
			expect(server.seen('/robots.txt')).toHaveLength(1);
		} finally {
			await server.close();
			await store.cleanup();
		}
	});
});
