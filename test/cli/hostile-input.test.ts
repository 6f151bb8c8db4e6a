import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Runs `revisit sweep` in-process on raw stdin bytes (runCli takes a string, which can't carry invalid UTF-8). */
async function sweepBytes(dir: string, input: Buffer, extra: string[] = ['-q']) {
	const [stdout, stderr] = [new PassThrough(), new PassThrough()];
	const text = (stream: PassThrough) => {
		const chunks: Buffer[] = [];
		stream.on('data', (chunk: Buffer) => chunks.push(chunk));
		return () => Buffer.concat(chunks).toString();
	};
	const [out, err] = [text(stdout), text(stderr)];
	const status = await main(['sweep', '--store', dir, '--ndjson', '--all', '--audit', '0', ...extra], {
		stdin: Readable.from(input.length === 0 ? [] : [input]),
		stdout,
		stderr,
		// The CLI reads $REVISIT_ROBOTS from the environment it is given: the suite's (vitest.config.ts).
		env: { REVISIT_ROBOTS: process.env.REVISIT_ROBOTS },
		interrupted: new Promise(() => {}),
	});
	return { status, stdout: out(), stderr: err(), verdicts: ndjson(out()) };
}

const lines = (...parts: Array<string | Buffer>): Buffer => Buffer.concat(parts.map((part) => Buffer.concat([Buffer.from(part), Buffer.from('\n')])));

describe('revisit sweep on hostile input', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		server = await startServer((req, res) => {
			if (req.url === '/private') return void res.writeHead(500).end('no');
			res.end(`page ${req.url}`);
		});
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});

	it('names each bad line once on stderr, one line each, exits 1 and probes the rest', async () => {
		const input = lines(
			server.url('/first'),
			'not a url',
			'http://exa mple.org/',
			'http://[::1/',
			'file:///etc/passwd',
			'javascript:alert(document.cookie)',
			'data:text/html,<script>alert(1)</script>',
			`${server.url('/')}${'a'.repeat(9000)}`,
			`${server.url('/nul')}\0byte`,
			Buffer.concat([Buffer.from(server.url('/latin1-')), Buffer.from([0xe9, 0xff, 0xfe])]),
			server.url('/last'),
		);
		const { status, stdout, stderr, verdicts } = await sweepBytes(store.dir, input);
		expect(status).toBe(1);
		expect(verdicts.map((verdict) => verdict.url)).toEqual([server.url('/first'), server.url('/last')]);
		expect(server.requests.map((request) => request.path)).toEqual(['/first', '/last']);
		expect(stdout).not.toContain('not a url');

		const diagnostics = stderr.trimEnd().split('\n');
		expect(diagnostics).toHaveLength(9);
		for (const [index, line] of diagnostics.entries()) {
			expect(line).toMatch(new RegExp(`(^|\\s)line ${index + 2}: `));
			expect(line.length).toBeLessThan(400);
		}
		expect(diagnostics[0]).toMatch(/line 2: not an absolute URL: "not a url"$/);
		expect(diagnostics[1]).toMatch(/line 3: not an absolute URL: "http:\/\/exa mple.org\/"$/);
		expect(diagnostics[2]).toMatch(/line 4: not an absolute URL/);
		expect(diagnostics[3]).toMatch(/line 5: scheme file: is not http or https/);
		expect(diagnostics[4]).toMatch(/line 6: scheme javascript: is not http or https/);
		expect(diagnostics[5]).toMatch(/line 7: scheme data: is not http or https/);
		expect(diagnostics[6]).toMatch(/line 8: line is longer than 8192 bytes/);
		expect(diagnostics[7]).toMatch(/line 9: line contains a NUL byte: ".*\/nul\\\\0byte"$/);
		expect(diagnostics[8]).toMatch(/line 10: line is not valid UTF-8/);
		expect(stderr).not.toContain('\0');
	});

	it('takes a line with words after its URL as a bad line, named with its number, not as one URL with %20s', async () => {
		const input = lines(server.url('/page/1.html'), `${server.url('/page/2.html')} extra words`, `${server.url('/page/3.html')}\tnote`);
		const { status, stderr, verdicts } = await sweepBytes(store.dir, input, []);
		expect(status).toBe(1);
		expect(verdicts.map((verdict) => verdict.url)).toEqual([server.url('/page/1.html')]);
		expect(server.requests.map((request) => request.path)).toEqual(['/page/1.html']);
		expect(stderr).toContain(
			`revisit: line 2: whitespace inside the line (one URL per line; write a space in a URL as %20): "${server.url('/page/2.html')} extra words"\n`,
		);
		expect(stderr).toMatch(/^revisit: line 3: whitespace inside the line/m);
		expect(stderr).toMatch(/^revisit: 1 URL, 1 changed, .*, 0 errors, 2 bad lines, /m);
	});

	it('takes CRLF line endings as line endings: nothing to report, no CR in any request', async () => {
		const input = Buffer.from(`${server.url('/a')}\r\n\r\n# a comment\r\n  ${server.url('/b')}  \r\n${server.url('/c')}\r\n`);
		const { status, stderr, verdicts } = await sweepBytes(store.dir, input);
		expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
		expect(verdicts.map((verdict) => verdict.url)).toEqual(['/a', '/b', '/c'].map((path) => server.url(path)));
		expect(server.requests.map((request) => request.path)).toEqual(['/a', '/b', '/c']);
	});

	it.each([
		['an empty stdin', ''],
		['blank lines and comments only', '\n\r\n   \n# nothing here\r\n\t\n'],
	])('treats %s as an empty, successful run that probes nothing', async (_what, input) => {
		const { status, stdout, stderr } = await sweepBytes(store.dir, Buffer.from(input));
		expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
		expect(server.requests).toHaveLength(0);
	});

	it('probes a URL with credentials (sent as Basic auth) and never prints the password', async () => {
		const password = 's3cret-Pa55';
		const port = new URL(server.origin).port;
		const secret = `http://user:${password}@127.0.0.1:${port}/private`;
		const input = lines(secret, `ftp://user:${password}@example.org/file`, `http://user:${password}@exa mple.org/`, server.url('/public'));
		// Without -q: the summary line is printed as well.
		const { status, stderr, verdicts } = await sweepBytes(store.dir, input, ['--retries', '0']);
		expect(status).toBe(1);
		expect(server.seen('/private')[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`user:${password}`).toString('base64')}`);
		expect(verdicts.find((verdict) => verdict.url === secret)).toMatchObject({ reason: 'error', error: { code: 'HTTP_500' } });
		expect(verdicts.find((verdict) => verdict.url === server.url('/public'))).toMatchObject({ reason: 'new' });
		expect(stderr).toContain(`http://user:***@127.0.0.1:${port}/private: HTTP_500`);
		expect(stderr).toMatch(/line 2: scheme ftp: is not http or https/);
		expect(stderr).toMatch(/line 3: not an absolute URL/);
		expect(stderr).toMatch(/^revisit: 2 URLs/m);
		expect(stderr).not.toContain(password);

		for (const args of [['stats'], ['stats', '--json'], ['history', '--json']]) {
			const shown = await runCli([...args, '--store', store.dir]);
			expect(shown.status, args.join(' ')).toBe(0);
			expect(shown.stdout + shown.stderr, args.join(' ')).not.toContain(password);
		}
	});
});
