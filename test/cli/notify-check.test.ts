import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { describeApprise } from '../helpers/smtp.js';
import { startReceiver } from '../io/notify/receiver.js';

/** The origin whose pages the runs check: what it saw says whether a run sent any request. */
let site: TestServer;
let dir: { dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
	site = await startServer((req, res) => void res.writeHead(req.url === '/robots.txt' ? 404 : 200, { 'content-type': 'text/plain' }).end(`page ${req.url}`));
	dir = await tempDir('revisit-notify-check-');
});
afterAll(async () => {
	await site.close();
	await dir.cleanup();
});

const PASSWORD = 'p4ssw0rd3';
/** The password as apprise abbreviates it in its own log, which hiding the whole password would miss. */
const ABBREVIATED = 'p...3';
const withPath = { PATH: process.env['PATH'] };
const seenBefore = () => site.requests.length;

describeApprise('--notify URLs sent through apprise are checked with apprise --dry-run at the start', () => {
	for (const target of [`jsno://user:${PASSWORD}@127.0.0.1/x`, `mail://user:${PASSWORD}@mail.example.org`]) {
		it(`revisit sweep --notify ${target.split(':')[0]}://…: exit 2 before the origin sees a request, naming --notify, the password nowhere`, async () => {
			const before = seenBefore();
			const result = await runCli(['sweep', '--store', path.join(dir.dir, 'sweep'), '--feed-new', '--notify', target], site.url('/sweep'), withPath);
			expect(result.status).toBe(2);
			expect(site.requests.length - before).toBe(0);
			expect(result.stderr).toContain('--notify');
			expect(result.stderr).toContain('apprise cannot load it');
			expect(result.stderr).not.toContain(PASSWORD);
			expect(result.stderr).not.toContain(ABBREVIATED);
		});
	}

	it('a scheme apprise knows and revisit does not send itself (form://) passes the check, and the change is sent', async () => {
		const { server, received } = await startReceiver();
		try {
			const url = site.url('/form');
			const result = await runCli(
				['sweep', '--store', path.join(dir.dir, 'form'), '-q', '--feed-new', '--notify', `form://${server.origin.slice('http://'.length)}/form`],
				url,
				withPath,
			);
			expect(result.status).toBe(0);
			expect(result.stdout.trim()).toBe(url);
			expect(received).toHaveLength(1);
			expect(received[0]).toMatchObject({ method: 'POST', path: '/form' });
		} finally {
			await server.close();
		}
	});

	it("revisit run: a pipeline file's notify sink is checked too, and named at its path", async () => {
		const file = path.join(dir.dir, 'notify.json');
		await writeFile(
			file,
			JSON.stringify({
				store: path.join(dir.dir, 'run'),
				source: { type: 'urls', urls: [site.url('/run')] },
				sinks: [{ type: 'stdout' }, { type: 'notify', urlsEnv: 'NOTIFY_URLS', new: true }],
			}),
		);
		const before = seenBefore();
		const result = await runCli(['run', file, '-q'], '', { ...withPath, NOTIFY_URLS: `jsno://user:${PASSWORD}@127.0.0.1/x` });
		expect(result.status).toBe(2);
		expect(site.requests.length - before).toBe(0);
		expect(result.stderr).toContain('pipeline: /sinks/1: notify URL jsno://***:***@***/***: apprise cannot load it');
		expect(result.stderr).not.toContain(PASSWORD);
	});

	it('revisit watch --notify jsno://…: exit 2 before the origin sees a request', async () => {
		const before = seenBefore();
		const result = await runCli(
			[
				'watch',
				'--store',
				path.join(dir.dir, 'watch'),
				'-q',
				'--rate',
				'100/s',
				'--until',
				'1h',
				'--feed-new',
				'--notify',
				`jsno://user:${PASSWORD}@127.0.0.1/x`,
			],
			`${site.url('/watch')}\n`,
			withPath,
		);
		expect(result.status).toBe(2);
		expect(site.requests.length - before).toBe(0);
		expect(result.stderr).toContain('--notify: notify URL jsno://***:***@***/***: apprise cannot load it');
		expect(result.stderr).not.toContain(PASSWORD);
	});
});

describeApprise('revisit check asks apprise too', () => {
	it("names a notify URL apprise cannot load at its sink's path: exit 2", async () => {
		const file = path.join(dir.dir, 'check.json');
		await writeFile(
			file,
			JSON.stringify({ source: { type: 'urls', urls: [site.url('/check')] }, sinks: [{ type: 'notify', urls: [`mail://user:${PASSWORD}@mail.example.org`] }] }),
		);
		const result = await runCli(['check', file], '', withPath);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('pipeline: /sinks/0: notify URL mail://***:***@***: apprise cannot load it');
		expect(result.stderr).not.toContain(PASSWORD);
	});
});
