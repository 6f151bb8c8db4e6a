import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { describeApprise, describeSmtp, startSmtp } from '../helpers/smtp.js';
import { startDripSmtp } from '../io/notify/hanging.js';
import { startReceiver } from '../io/notify/receiver.js';
import { freePort } from '../interop/servers/launch.js';

let site: TestServer;
const price = new Map<string, string>();
beforeAll(async () => {
	site = await startServer((req, res) => {
		res
			.writeHead(200, { 'content-type': 'text/html' })
			.end(
				`<html><body><p class="stamp">${Date.now()}-${Math.random()}</p><h1>Kettle ${req.url}</h1><p class="price">${price.get(req.url!) ?? '$10'}</p>` +
					`</body></html>`,
			);
	});
});
afterAll(() => site.close());

const hostOf = (server: TestServer) => server.origin.slice('http://'.length);
/** A port nothing listens on. */
const closedPort = freePort;

describeSmtp('revisit sweep --notify mailto:// (a real SMTP server, aiosmtpd)', () => {
	it('mails each change once it is found, and nothing when nothing changed', async () => {
		const smtp = await startSmtp();
		const dir = await tempDir('revisit-notify-mail-');
		try {
			const url = site.url('/mail');
			const sweep = () =>
				runCli(
					[
						'sweep',
						'--store',
						path.join(dir.dir, 'store'),
						'-q',
						'--select',
						'.price',
						'--notify',
						`mailto://${smtp.host}:${smtp.port}?from=revisit@example.org&to=me@example.org`,
					],
					url,
				);
			expect((await sweep()).status).toBe(0);
			expect(await smtp.mails()).toEqual([]); // a first sighting is not told without --feed-new
			expect((await sweep()).stdout).toBe('');
			price.set('/mail', '$12');
			const changed = await sweep();
			expect(changed.status).toBe(0);
			expect(changed.stdout.trim()).toBe(url);
			const mails = await smtp.mails();
			expect(mails).toHaveLength(1);
			expect(mails[0]).toMatchObject({ from: 'revisit@example.org', to: ['me@example.org'], subject: `Changed: ${url}` });
			expect(mails[0]!.body.replace(/\r\n/g, '\n')).toMatch(new RegExp(`^${url}\nreason: new-body\n\n.*\\[-\\$10-\\]\\{\\+\\$12\\+\\}`));
		} finally {
			await smtp.stop();
			await dir.cleanup();
		}
	});
});

describe('revisit sweep --notify to chat services', () => {
	it('json:// and ntfy:// each get one POST per change, with --feed-new and a template', async () => {
		const { server, received } = await startReceiver();
		const dir = await tempDir('revisit-notify-chat-');
		try {
			const url = site.url('/chat');
			const result = await runCli(
				[
					'sweep',
					'--store',
					path.join(dir.dir, 'store'),
					'-q',
					'--feed-new',
					'--notify',
					`json://${hostOf(server)}/hook`,
					'--notify',
					`ntfy://${hostOf(server)}/prices`,
					'--notify-template',
					'{reason}: {url}',
				],
				url,
			);
			expect(result.status).toBe(0);
			// Each URL is sent to on its own (one that hangs holds no other): in any order.
			expect(received.map((r) => [r.method, r.path]).sort()).toEqual([
				['POST', '/'],
				['POST', '/hook'],
			]);
			received.sort((a, b) => (a.path === '/hook' ? -1 : b.path === '/hook' ? 1 : 0));
			expect(received[0]!.body).toMatchObject({ version: '1.0', title: `New page: ${url}`, message: `new: ${url}`, type: 'info', url, reason: 'new' });
			expect(received[1]!.body).toEqual({ topic: 'prices', title: `New page: ${url}`, message: `new: ${url}`, click: url });
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});

	it('a failing receiver is retried, the run exits 1 with SINK_FAILED, and the change waits in the store: the next run delivers it, once', async () => {
		let failing = true;
		const { server, received } = await startReceiver(() => [failing ? 503 : 200]);
		const dir = await tempDir('revisit-notify-fail-');
		try {
			const url = site.url('/fail');
			const sweep = () =>
				runCli(
					[
						'sweep',
						'--store',
						path.join(dir.dir, 'store'),
						'-q',
						'--feed-new',
						'--audit',
						'0',
						'--select',
						'.price',
						'--notify',
						`json://${hostOf(server)}/hook`,
					],
					url,
				);
			const refused = await sweep();
			expect(refused.status).toBe(1);
			expect(refused.stderr).toContain(`notify json://${hostOf(server)}/hook: answered 503 after 4 attempts`);
			expect(received).toHaveLength(4);
			failing = false;
			const delivered = await sweep();
			expect(delivered.status).toBe(0);
			// Nothing changed since: nothing printed, but the change that waited is delivered.
			expect(delivered.stdout).toBe('');
			expect(received.slice(4).map((r) => (r.body as { reason: string }).reason)).toEqual(['new']);
			expect((await sweep()).stdout).toBe('');
			expect(received).toHaveLength(5);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});

describe('a delivery that hangs', () => {
	it('SIGTERM while a mail server drips its reply ends the run within seconds, exit 130, and the change waits in the store for the next run', async () => {
		const drip = await startDripSmtp();
		const dir = await tempDir('revisit-notify-sigterm-');
		try {
			const url = site.url('/sigterm');
			const store = path.join(dir.dir, 'store');
			const run = spawnCli(
				[
					'sweep',
					'--store',
					store,
					'-q',
					'--feed-new',
					'--audit',
					'0',
					'--notify',
					`mailto://${drip.host}:${drip.port}?from=revisit@example.org&to=me@example.org`,
				],
				url,
			);
			// The run is in the SMTP exchange, which the server never ends (the default deadline is 15 s).
			await drip.reached;
			run.child.kill('SIGTERM');
			// It used to wait for the server for as long as the server liked.
			let bound: NodeJS.Timeout | undefined;
			const ended = await Promise.race([run.done, new Promise<undefined>((resolve) => (bound = setTimeout(() => resolve(undefined), 15_000)))]);
			clearTimeout(bound);
			if (!ended) run.child.kill('SIGKILL');
			expect(ended).toMatchObject({ status: 130, stdout: `${url}\n` });
			await drip.left;
			// Not delivered: its delivery is pending in the store, for the next run with this URL.
			const stats = await runCli(['stats', '--store', store]);
			expect(stats.stdout).toContain(
				`Pending deliveries (changes committed, waiting for their target):\n  notify ` +
					`mailto://${drip.host}:${drip.port}?from=revisit@example.org&to=me@example.org  1 pending, the oldest from `,
			);
		} finally {
			await drip.close();
			await dir.cleanup();
		}
	});
});

describe('notify URLs: secrets never shown', () => {
	it('a mailto:// URL whose server is down: exit 1, the password nowhere on stderr', async () => {
		const dir = await tempDir('revisit-notify-secret-');
		try {
			const port = await closedPort();
			const result = await runCli(
				['sweep', '--store', path.join(dir.dir, 'store'), '-q', '--feed-new', '--notify', `mailtos://alice:Hunter2-Secret@127.0.0.1:${port}?to=me@example.org`],
				site.url('/secret'),
			);
			expect(result.status).toBe(1);
			expect(result.stderr).toContain(`notify mailtos://alice:***@127.0.0.1:${port}?to=me@example.org: `);
			expect(result.stderr).toContain('ECONNREFUSED');
			expect(result.stderr).not.toContain('Hunter2-Secret');
		} finally {
			await dir.cleanup();
		}
	});

	it('URLs after --notify are pages to check, not more notify URLs', async () => {
		const { server, received } = await startReceiver();
		const dir = await tempDir('revisit-notify-args-');
		try {
			const result = await runCli([
				'sweep',
				'--store',
				path.join(dir.dir, 'store'),
				'--feed-new',
				'--notify',
				`json://${hostOf(server)}/hook`,
				site.url('/args1'),
				site.url('/args2'),
			]);
			expect(result.status).toBe(0);
			expect(received.map((r) => (r.body as { url: string }).url).sort()).toEqual([site.url('/args1'), site.url('/args2')]);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});

	it('a malformed URL is a usage error (exit 2) before anything runs, its token hidden', async () => {
		const result = await runCli(['sweep', '--store', '/nonexistent/store', '--notify', 'tgram://123456:SECRET-BOT-TOKEN'], site.url('/x'));
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('notify URL tgram://***: write tgram://BOT_TOKEN/CHAT_ID');
		expect(result.stderr).not.toContain('SECRET-BOT-TOKEN');
	});

	it('a scheme only apprise sends, without apprise installed: exit 2 naming the scheme and apt-get install apprise', async () => {
		const result = await runCli(['sweep', '--notify', 'pover://userkey1234@apptoken5678'], site.url('/x'), { PATH: '/nonexistent' });
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('notify URL pover://***@*** uses pover://, which revisit does not send itself');
		expect(result.stderr).toContain('apt-get install apprise');
		expect(result.stderr).not.toMatch(/userkey1234|apptoken5678/);
	});
});

describeApprise("revisit sweep --notify through Debian's apprise", () => {
	it('--notify-apprise sends json:// through the apprise command to a local server', async () => {
		const { server, received } = await startReceiver();
		const dir = await tempDir('revisit-notify-apprise-');
		try {
			const url = site.url('/apprise');
			const result = await runCli(
				['sweep', '--store', path.join(dir.dir, 'store'), '-q', '--feed-new', '--notify-apprise', '--notify', `json://${hostOf(server)}/apprise`],
				url,
				{ PATH: process.env['PATH'] },
			);
			expect(result.status).toBe(0);
			expect(received).toMatchObject([
				{ method: 'POST', path: '/apprise', body: { version: '1.0', title: `New page: ${url}`, message: `${url}\nreason: new`, type: 'info' } },
			]);
			expect(received[0]!.headers['user-agent']).toMatch(/apprise/i);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});

describe("a pipeline file's notify sink", () => {
	it('takes its URLs from urlsEnv, and revisit check names a bad one at its path', async () => {
		const { server, received } = await startReceiver();
		const dir = await tempDir('revisit-notify-run-');
		try {
			const file = path.join(dir.dir, 'notify.json');
			const url = site.url('/pipeline');
			await writeFile(
				file,
				JSON.stringify({
					store: path.join(dir.dir, 'store'),
					source: { type: 'urls', urls: [url] },
					sinks: [{ type: 'stdout' }, { type: 'notify', urlsEnv: 'NOTIFY_URLS', new: true }],
				}),
			);
			expect((await runCli(['run', file, '-q'], '', { NOTIFY_URLS: `json://${hostOf(server)}/one json://${hostOf(server)}/two` })).status).toBe(0);
			expect(received.map((r) => [r.path, (r.body as { url: string }).url])).toEqual([
				['/one', url],
				['/two', url],
			]);
			await writeFile(file, JSON.stringify({ source: { type: 'urls', urls: [url] }, sinks: [{ type: 'notify', urls: ['discord://1234'] }] }));
			const checked = await runCli(['check', file]);
			expect(checked.status).toBe(2);
			expect(checked.stderr).toContain('pipeline: /sinks/0: notify URL discord://1234: write discord://WEBHOOK_ID/WEBHOOK_TOKEN');
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});
