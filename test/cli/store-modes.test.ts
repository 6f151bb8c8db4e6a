import { execFile } from 'node:child_process';
import { chmod, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, spawnCli, tempDir } from '../helpers/cli.js';
import { findProgram } from '../helpers/debian.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait-for.js';

const SETPRIV = findProgram('setpriv');
/** Another user's view needs root (to become `nobody`) and setpriv (util-linux). */
const asNobody = process.getuid?.() === 0 && SETPRIV !== undefined;

/** Runs a command as uid and gid 65534 (nobody), without root's groups: its status and output. */
function nobody(command: string[]): Promise<{ status: number; stdout: string }> {
	return new Promise((resolve) => {
		execFile(SETPRIV!, ['--reuid=65534', '--regid=65534', '--clear-groups', ...command], (error, stdout) => {
			resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout });
		});
	});
}

/** The mode bits of everything under `dir` and of `dir` itself, by path relative to it ('.' for itself). */
async function modes(dir: string): Promise<Record<string, string>> {
	const out: Record<string, string> = { '.': ((await stat(dir)).mode & 0o777).toString(8) };
	for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
		const full = path.join(entry.parentPath, entry.name);
		out[path.relative(dir, full)] = ((await stat(full)).mode & 0o777).toString(8);
	}
	return out;
}

/** Every entry's mode as the store's rule wants it: the directories 700, the files (and the socket) 600. */
function expectPrivate(found: Record<string, string>): void {
	const wanted = Object.fromEntries(Object.keys(found).map((name) => [name, name === '.' ? '700' : '600']));
	expect(found).toEqual(wanted);
}

describe("the store is the user's alone", () => {
	let server: TestServer;
	let base: { dir: string; cleanup(): Promise<void> };
	let store: string;
	beforeEach(async () => {
		server = await startServer((req, res) => res.end(`page ${req.url} text`));
		base = await tempDir('revisit-modes-');
		// The store's parent is open to every user, as a home directory or /var/lib often is: only the store's own modes guard it.
		await chmod(base.dir, 0o755);
		store = path.join(base.dir, 'store');
	});
	afterEach(async () => {
		await server.close();
		await base.cleanup();
	});

	it('a sweep makes the store 0700 and its files 0600: another user reads nothing of its pages, versions or a notify token', async () => {
		// A target that refuses: the change stays in the outbox. The URL a user watches (a private one, here) is in the store as written.
		const sweep = await spawnCli(
			[
				'sweep',
				'--store',
				store,
				'--robots',
				'ignore',
				'--feed-new',
				'--keep-versions',
				'3',
				'--notify',
				'json://127.0.0.1:1/hook?token=T0KEN46',
				server.url('/private/SECRET46'),
			],
			'',
		).done;
		expect(sweep.stdout).toBe(`${server.url('/private/SECRET46')}\n`);
		const found = await modes(store);
		expect(Object.keys(found).length).toBeGreaterThan(3);
		expectPrivate(found);
		// The store does hold what another user must not read.
		const bytes = await Promise.all(
			Object.keys(found)
				.filter((name) => name !== '.')
				.map((name) => readFile(path.join(store, name), 'latin1')),
		);
		expect(bytes.some((text) => text.includes('SECRET46'))).toBe(true);
		if (!asNobody) return;
		const list = await nobody(['ls', store]);
		expect(list.status).not.toBe(0);
		expect(list.stdout).toBe('');
		for (const name of Object.keys(found).filter((name) => name !== '.')) {
			const read = await nobody(['cat', path.join(store, name)]);
			expect(read.status, name).not.toBe(0);
			expect(read.stdout, name).toBe('');
		}
	}, 30_000);

	it('a store left 0755 and 0644 is made 0700 and 0600 at its next open, with one line saying so, and not again after', async () => {
		expect((await spawnCli(['sweep', '-q', '--store', store, '--robots', 'ignore', server.url('/a')], '').done).status).toBe(0);
		const files = (await readdir(store)).length;
		await chmod(store, 0o755);
		for (const name of await readdir(store)) await chmod(path.join(store, name), 0o644);

		const stats = await spawnCli(['stats', '--store', store], '').done;
		expect(stats.status).toBe(0);
		expect(stats.stderr).toBe(`revisit: store ${store} was open to other users: made its directory 0700 (was 0755) and ${files} files 0600 (were 0644)\n`);
		expectPrivate(await modes(store));

		const again = await spawnCli(['stats', '--store', store], '').done;
		expect(again).toMatchObject({ status: 0, stderr: '' });
	}, 30_000);

	it("a watch's store and socket: 0700 and 0600 while it runs, no connection for another user, every file 0600 when it stops", async () => {
		const watch = spawnCli(
			['watch', '--store', store, '--robots', 'ignore', '--audit', '0', '--ndjson', '-q', '--rate', '100/s'],
			`${server.url('/a')}\n${server.url('/b')}\n`,
		);
		try {
			await waitFor(() => ndjson(watch.stdout()).length >= 2, 'both pages checked');
			await waitFor(async () => (await readdir(store)).includes('watch.sock'), 'the socket');
			expect((await stat(store)).mode & 0o777).toBe(0o700);
			expect((await stat(path.join(store, 'watch.sock'))).mode & 0o777).toBe(0o600);
			if (asNobody) {
				const connect =
					`require('node:net').connect(${JSON.stringify(path.join(store, 'watch.sock'))}).on('connect', () => { console.log('connected'); ` +
					`process.exit(0); }).on('error', (error) => { console.log(error.code); process.exit(1); })`;
				expect(await nobody([process.execPath, '-e', connect])).toEqual({ status: 1, stdout: 'EACCES\n' });
			}
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
		expectPrivate(await modes(store));
	}, 60_000);
});
