import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startTinyproxy, describeTinyproxy, type TestProxy } from '../helpers/tinyproxy.js';
import { readWarc } from '../helpers/warc.js';

// Request headers, cookies and proxies (issue 19, sections 2–4), against real servers on 127.0.0.1.

let dir: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => (dir = await tempDir('revisit-access-')));
afterEach(async () => dir.cleanup());

const store = () => path.join(dir.dir, 'store');

describe('request headers and cookies', () => {
	// Two origins: 127.0.0.1 and localhost, on different ports.
	let origin: TestServer;
	let other: TestServer;
	beforeAll(async () => {
		other = await startServer((_req, res) => res.end('elsewhere'));
		origin = await startServer((req, res) => {
			if (req.url === '/away') {
				res.writeHead(302, { location: `http://localhost:${new URL(other.origin).port}/landing` });
				return void res.end();
			}
			if (req.url === '/login') {
				res.setHeader('set-cookie', ['fresh=abc; Path=/; Max-Age=3600', 'gone=1; Path=/; Max-Age=0']);
				return void res.end('logged in');
			}
			// The origin checks what it was sent: a 403 otherwise.
			const ok = req.headers['x-api-token'] === 's3cr3t' && req.headers['accept-language'] === 'fr' && /(^|; )session=xyz(;|$)/.test(req.headers.cookie ?? '');
			res.writeHead(ok ? 200 : 403, { 'content-type': 'text/plain' });
			res.end(`page ${req.url}`);
		});
	});
	afterAll(async () => {
		await origin.close();
		await other.close();
	});

	const cookieFile = async (): Promise<string> => {
		const file = path.join(dir.dir, 'cookies.txt');
		await writeFile(file, ['# Netscape HTTP Cookie File', ['127.0.0.1', 'FALSE', '/', 'FALSE', '0', 'session', 'xyz'].join('\t'), ''].join('\n'));
		return file;
	};

	it('sends -H headers and the cookie file to the origin, which checks them', async () => {
		const { status, stdout, stderr } = await runCli([
			'sweep',
			'--store',
			store(),
			'-q',
			'--ndjson',
			'--all',
			'-H',
			'X-Api-Token: s3cr3t',
			'--header',
			'Accept-Language: fr',
			'--cookies',
			await cookieFile(),
			origin.url('/a'),
		]);
		expect(stderr).toBe('');
		expect(status).toBe(0);
		expect(JSON.parse(stdout)).toMatchObject({ url: origin.url('/a'), changed: true, reason: 'new' });
		const seen = origin.seen('/a')[0]!;
		expect(seen.headers['x-api-token']).toBe('s3cr3t');
		expect(seen.headers.cookie).toBe('session=xyz');
		expect(stdout).not.toContain('s3cr3t');
	});

	it('a redirect to another origin carries neither the Authorization header nor the cookie', async () => {
		const { status } = await runCli([
			'sweep',
			'--store',
			store(),
			'-q',
			'-H',
			'Authorization: Bearer s3cr3t',
			'-H',
			'X-Api-Token: s3cr3t',
			'-H',
			'Accept-Language: fr',
			'--cookies',
			await cookieFile(),
			origin.url('/away'),
		]);
		expect(status).toBe(0);
		const first = origin.seen('/away').at(-1)!;
		expect(first.headers.authorization).toBe('Bearer s3cr3t');
		expect(first.headers.cookie).toBe('session=xyz');
		const landed = other.seen('/landing').at(-1)!;
		expect(landed).toBeDefined();
		expect(landed.headers.authorization).toBeUndefined();
		expect(landed.headers.cookie).toBeUndefined();
		expect(landed.headers['x-api-token']).toBeUndefined();
		// A header that is not secret goes along.
		expect(landed.headers['accept-language']).toBe('fr');
	});

	it('--cookie-jar holds what the server set, with the cookies read', async () => {
		const jar = path.join(dir.dir, 'jar.txt');
		const { status } = await runCli(['sweep', '--store', store(), '-q', '--cookies', await cookieFile(), '--cookie-jar', jar, origin.url('/login')]);
		expect(status).toBe(0);
		const lines = (await readFile(jar, 'utf8')).split('\n').filter((line) => line !== '' && !line.startsWith('#'));
		const byName = Object.fromEntries(lines.map((line) => [line.split('\t')[5], line.split('\t')]));
		expect(byName['fresh']?.slice(0, 4)).toEqual(['127.0.0.1', 'FALSE', '/', 'FALSE']);
		expect(Number(byName['fresh']?.[4])).toBeGreaterThan(Date.now() / 1000);
		expect(byName['fresh']?.[6]).toBe('abc');
		expect(byName['session']?.[6]).toBe('xyz');
		expect(byName['gone']).toBeUndefined();
	});

	it('refuses --cookies with --local-workers (exit 2)', async () => {
		const { status, stderr } = await runCli(['sweep', '--store', store(), '--local-workers', '2', '--cookies', await cookieFile(), origin.url('/a')]);
		expect(status).toBe(2);
		expect(stderr).toContain('--local-workers');
	});

	it('a WARC written with a secret header keeps its name, its value redacted', async () => {
		const warc = path.join(dir.dir, 'run.warc.gz');
		const { status } = await runCli([
			'sweep',
			'--store',
			store(),
			'-q',
			'--warc',
			warc,
			'-H',
			'X-Api-Token: s3cr3t',
			'-H',
			'Accept-Language: fr',
			'--cookies',
			await cookieFile(),
			origin.url('/w'),
		]);
		expect(status).toBe(0);
		const records = await readWarc(warc);
		const request = records.find((record) => record.type === 'request')!;
		const text = request.block.toString();
		expect(text).not.toContain('s3cr3t');
		expect(text).not.toContain('xyz');
		expect(text).toMatch(/^x-api-token: \[redacted\]\r$/im);
		expect(text).toMatch(/^cookie: \[redacted\]\r$/im);
		expect(text).toMatch(/^accept-language: fr\r$/im);
	});

	it("a URL's user:password goes as Basic auth, not along a redirect to another origin, and never to stderr or a WARC record", async () => {
		const warc = path.join(dir.dir, 'creds.warc.gz');
		const url = origin.url('/creds').replace('http://', 'http://alice:pa55word@');
		const away = origin.url('/away').replace('http://', 'http://alice:pa55word@');
		const { stderr } = await runCli(['sweep', '--store', store(), '--warc', warc, url, away]);
		expect(origin.seen('/creds')[0]!.headers.authorization).toBe(`Basic ${Buffer.from('alice:pa55word').toString('base64')}`);
		expect(other.seen('/landing').at(-1)!.headers.authorization).toBeUndefined();
		expect(stderr).not.toContain('pa55word');
		expect((await readWarc(warc)).map((record) => `${JSON.stringify(record.headers)}${record.block.toString()}`).join('')).not.toContain('pa55word');
	});

	for (const name of ['Host', 'If-None-Match', 'If-Modified-Since', 'Accept-Encoding', 'Range']) {
		it(`refuses -H '${name}: …' with exit 2, naming the header`, async () => {
			const { status, stderr } = await runCli(['sweep', '--store', store(), '-H', `${name}: x`, origin.url('/a')]);
			expect(status).toBe(2);
			expect(stderr).toContain(name);
			expect(stderr).toContain('--header');
		});
	}
});

describe('headers in a pipeline file', () => {
	let api: TestServer;
	let site: TestServer;
	beforeAll(async () => {
		site = await startServer((req, res) => res.end(`site ${req.url}`));
		api = await startServer((req, res) => {
			res.writeHead(req.headers.authorization === 'Bearer from-env' && req.headers['x-run'] === 'all' ? 200 : 403);
			res.end(`api ${req.url}`);
		});
	});
	afterAll(async () => {
		await api.close();
		await site.close();
	});

	const pipeline = async (headers: unknown[]): Promise<string> => {
		const file = path.join(dir.dir, 'pipeline.json');
		await writeFile(
			file,
			JSON.stringify({
				store: store(),
				source: { type: 'urls', urls: [api.url('/v1'), site.url('/page')] },
				stages: [{ use: 'probe', headers }],
				sinks: [{ type: 'stdout', format: 'ndjson', when: 'all' }],
			}),
		);
		return file;
	};

	it('sends a header to every URL, and one from the environment only where its match fits', async () => {
		const file = await pipeline([
			{ name: 'X-Run', value: 'all' },
			{ name: 'Authorization', value: { env: 'API_TOKEN' }, match: api.origin },
		]);
		const { status, stdout, stderr } = await runCli(['run', file, '-q'], '', { API_TOKEN: 'Bearer from-env' });
		expect(stderr).toBe('');
		expect(status).toBe(0);
		expect(stdout).not.toContain('from-env');
		expect(api.seen('/v1')[0]!.headers.authorization).toBe('Bearer from-env');
		const page = site.seen('/page')[0]!;
		expect(page.headers['x-run']).toBe('all');
		expect(page.headers.authorization).toBeUndefined();
	});

	it("refuses one of revisit's own headers, naming its path in the file (exit 2)", async () => {
		const file = await pipeline([
			{ name: 'X-Run', value: 'all' },
			{ name: 'If-None-Match', value: '"x"' },
		]);
		const before = api.requests.length;
		const { status, stderr } = await runCli(['run', file, '-q']);
		expect(status).toBe(2);
		expect(stderr).toContain('/stages/0/headers/1/name');
		expect(stderr).toContain('If-None-Match');
		expect(api.requests).toHaveLength(before);
	});
});

describe('--help', () => {
	it.each(['sweep', 'fetch', 'crawl'])('%s --help names the header, cookie and proxy flags', async (command) => {
		const { stdout } = await runCli([command, '--help']);
		for (const flag of ['--header', '-H', '--cookies', '--cookie-jar', '--proxy']) expect(stdout).toContain(flag);
	});
});

describeTinyproxy('proxies (tinyproxy)', () => {
	let proxy: TestProxy;
	let origin: TestServer;
	beforeAll(async () => {
		proxy = await startTinyproxy();
		origin = await startServer((req, res) => res.end(`page ${req.url}`));
	});
	afterAll(async () => {
		await origin.close();
		await proxy.stop();
	});

	const paths = ['/p/1', '/p/2', '/p/3'];

	it('with HTTP_PROXY set, every request of a sweep goes through the proxy', async () => {
		const { status, stderr } = await runCli(['sweep', '--store', store(), '-q', ...paths.map((p) => origin.url(p))], '', { HTTP_PROXY: proxy.url });
		expect(stderr).toBe('');
		expect(status).toBe(0);
		const log = await proxy.log();
		for (const p of paths) expect(log).toContain(origin.url(p));
		expect(origin.requests.filter((r) => paths.includes(r.path))).toHaveLength(3);
	});

	it('with NO_PROXY covering the origin, none does; --no-proxy ignores the environment', async () => {
		const before = await proxy.log();
		const urls = ['/q/1', '/q/2'].map((p) => origin.url(p));
		expect((await runCli(['sweep', '--store', store(), '-q', ...urls], '', { http_proxy: proxy.url, NO_PROXY: 'localhost,127.0.0.1' })).status).toBe(0);
		expect((await runCli(['sweep', '--store', store(), '-q', '--no-proxy', origin.url('/q/3')], '', { HTTP_PROXY: proxy.url })).status).toBe(0);
		const added = (await proxy.log()).slice(before.length);
		expect(added).not.toContain('/q/');
		expect(origin.seen('/q/3')).toHaveLength(1);
	});

	it('an https:// URL goes through a CONNECT tunnel (HTTPS_PROXY), keep-alive within the run', async () => {
		const certs = await tempDir('revisit-access-tls-');
		const [key, cert] = [path.join(certs.dir, 'key.pem'), path.join(certs.dir, 'cert.pem')];
		await promisify(execFile)('openssl', [
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=127.0.0.1',
			'-addext',
			'subjectAltName=IP:127.0.0.1',
			'-keyout',
			key,
			'-out',
			cert,
		]);
		const seen: string[] = [];
		const server = https.createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
			seen.push(req.url ?? '');
			res.end(`secure ${req.url}`);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const port = (server.address() as AddressInfo).port;
		try {
			const before = (await proxy.log()).length;
			const urls = ['/s/1', '/s/2'].map((p) => `https://127.0.0.1:${port}${p}`);
			const { status, stderr } = await runCli(['sweep', '--store', store(), '-q', '--insecure', ...urls], '', { HTTPS_PROXY: proxy.url });
			expect(stderr).toBe('');
			expect(status).toBe(0);
			expect(seen.sort()).toEqual(['/s/1', '/s/2']);
			expect((await proxy.log()).slice(before)).toContain(`CONNECT 127.0.0.1:${port}`);
		} finally {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
			await certs.cleanup();
		}
	});

	it('--proxy overrides the environment', async () => {
		const { status } = await runCli(['sweep', '--store', store(), '-q', '--proxy', proxy.url, origin.url('/r/1')], '', { HTTP_PROXY: 'http://127.0.0.1:9' });
		expect(status).toBe(0);
		expect(await proxy.log()).toContain(origin.url('/r/1'));
	});
});
