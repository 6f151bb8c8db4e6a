import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { CHROMIUM } from '../helpers/browser.js';
import { describeNeeding } from '../helpers/debian.js';
import { AS_ROOT, ASK_PROXY, asNobody, NOBODY } from '../helpers/other-user.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait-for.js';

/** The guard proxy of the browser this process launched: `--proxy-server=` of a chromium whose parent is this process. */
async function ownBrowserProxy(): Promise<string | undefined> {
	for (const pid of await readdir('/proc').catch(() => [])) {
		if (!/^\d+$/.test(pid)) continue;
		const stat = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '');
		// The parent's pid is the second field after the command's closing parenthesis.
		if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
		const args = (await readFile(`/proc/${pid}/cmdline`, 'latin1').catch(() => '')).split('\0');
		const proxy = args.find((arg) => arg.startsWith('--proxy-server='));
		if (proxy) return proxy.slice('--proxy-server='.length);
	}
	return undefined;
}

describeNeeding(CHROMIUM, "sweep --render: the guard proxy is its own browser's alone", () => {
	let site: TestServer;
	let internal: TestServer;
	let dir: Awaited<ReturnType<typeof tempDir>>;
	let release = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));
	beforeAll(async () => {
		internal = await startServer((_, response) => response.end('internal: secret\n'));
		site = await startServer((request, response) => {
			// The page's data request is held until the test has tried the proxy: the browser, and so its proxy, live meanwhile.
			if (request.url === '/wait') return void held.then(() => response.writeHead(200, { 'access-control-allow-origin': '*' }).end('15 EUR'));
			response
				.writeHead(200, { 'content-type': 'text/html' })
				.end(
					`<!doctype html><title>t</title><p class="price"></p><script>fetch('/wait').then((r) ` +
						`=> r.text()).then((t) => { document.querySelector('.price').textContent = t; });</script>`,
				);
		});
		dir = await tempDir('revisit-render-proxy-');
	});
	afterAll(async () => {
		release();
		await site?.close();
		await internal?.close();
		await dir?.cleanup();
	});

	it.runIf(AS_ROOT)(
		'another local user gets 407 from it for a GET and a CONNECT to a loopback service, reaches nothing, and the run says so',
		async () => {
			let proxy: string | undefined;
			const running = runCli([
				'sweep',
				'--store',
				path.join(dir.dir, 'store'),
				site.url('/product'),
				'--render',
				'always',
				'--render-timeout',
				'60',
				'--select',
				'.price',
				'--ndjson',
				'--all',
			]);
			try {
				await waitFor(() => site.seen('/wait').length > 0, 'the page to ask for its data', 60_000);
				proxy = await ownBrowserProxy();
				expect(proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
				const answers = JSON.parse(await asNobody(ASK_PROXY, [proxy!, internal.url('/admin'), new URL(internal.origin).host])) as {
					get: string;
					connect: string;
				};
				expect(answers).toEqual({ get: expect.stringMatching(/^HTTP\/1\.1 407/), connect: expect.stringMatching(/^HTTP\/1\.1 407/) });
			} finally {
				release();
			}
			const run = await running;
			// Its own browser went through the same proxy, answering the 407 with its credential.
			expect(ndjson(run.stdout)).toEqual([expect.objectContaining({ url: site.url('/product'), reason: 'new', rendered: true })]);
			expect(run.stderr).toContain(`refused a client of uid ${NOBODY} (GET, no credential)`);
			expect(run.stderr).toContain(`refused a client of uid ${NOBODY} (CONNECT, no credential)`);
			expect(internal.requests).toEqual([]);
			// The proxy lived as long as its browser: the run is over, and nothing listens there.
			const at = new URL(proxy!);
			const after = await new Promise<string>((resolve) => {
				const socket = net.connect(Number(at.port), at.hostname, () => (socket.destroy(), resolve('connected')));
				socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
			});
			expect(after).toBe('ECONNREFUSED');
		},
		120_000,
	);
});
