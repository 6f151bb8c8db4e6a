import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Every file under `dir` (relative path → bytes, base64), or what `dir` itself is when not a directory. */
async function snapshot(dir: string): Promise<Record<string, string>> {
	if (!(await stat(dir)).isDirectory()) return { '.': (await readFile(dir)).toString('base64') };
	const files: Record<string, string> = {};
	for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
		const full = path.join(entry.parentPath, entry.name);
		files[path.relative(dir, full)] = entry.isDirectory() ? '<dir>' : (await readFile(full)).toString('base64');
	}
	return files;
}

/** Every key and value of a LevelDB, sublevels included, read with level itself. */
async function dump(dir: string): Promise<Array<[string, string]>> {
	const db = new Level<string, string>(dir, { createIfMissing: false });
	try {
		return await db.iterator().all();
	} finally {
		await db.close();
	}
}

const NO_STACK = /\n\s+at /;

describe('store safety', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	let release: () => void;
	beforeEach(async () => {
		const hold = new Promise<void>((resolve) => (release = resolve));
		server = await startServer((req, res) => {
			if (req.url === '/slow') return void hold.then(() => res.end('slow page'));
			res.end(`page ${req.url}`);
		});
		store = await tempDir();
	});
	afterEach(async () => {
		release();
		await server.close();
		await store.cleanup();
	});

	it('a second revisit process on a store in use exits 2 naming the store, with no stack trace', async () => {
		const first = spawnCli(['sweep', '--store', store.dir, '-q'], `${server.url('/slow')}\n`);
		// Once the slow request is in, the first process holds the store.
		for (let i = 0; i < 500 && server.seen('/slow').length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(server.seen('/slow')).toHaveLength(1);

		for (const args of [['sweep', '-q'], ['stats']]) {
			const second = await spawnCli([...args, '--store', store.dir], `${server.url('/other')}\n`).done;
			expect(second.status, args[0]).toBe(2);
			expect(second.stderr).toBe(`revisit: store ${store.dir} is locked: another revisit is using it\n`);
			expect(second.stderr).not.toMatch(NO_STACK);
			expect(second.stdout).toBe('');
		}
		expect(server.seen('/other')).toHaveLength(0);

		release();
		const done = await first.done;
		expect(done).toMatchObject({ status: 0, stdout: `${server.url('/slow')}\n` });
	});

	it('a store another revisit is creating right now (LevelDB files, no CURRENT yet) is reported as locked, not as foreign', async () => {
		// The window between LevelDB taking the lock and renaming its new CURRENT into place,
		// held open: the holder's CURRENT goes back to being a temporary file while it keeps the lock.
		const holder = new Level(store.dir);
		await holder.open();
		try {
			await rename(path.join(store.dir, 'CURRENT'), path.join(store.dir, '000999.dbtmp'));
			const result = await runCli(['sweep', '-q', '--store', store.dir, server.url('/a')]);
			expect(result).toMatchObject({ status: 2, stderr: `revisit: store ${store.dir} is locked: another revisit is using it\n` });
			expect(server.requests).toHaveLength(0);
		} finally {
			await rename(path.join(store.dir, '000999.dbtmp'), path.join(store.dir, 'CURRENT'));
			await holder.close();
		}
	});

	describe('a path that is not a revisit store', () => {
		const cases: Array<[string, (dir: string) => Promise<void>]> = [
			[
				'a directory of other files',
				async (dir) => {
					await writeFile(path.join(dir, 'notes.txt'), 'my notes, not a database\n');
					await mkdir(path.join(dir, 'photos'));
					await writeFile(path.join(dir, 'photos', 'cat.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 1, 2, 3]));
				},
			],
			[
				'a directory whose CURRENT file is garbage',
				async (dir) => {
					await writeFile(path.join(dir, 'CURRENT'), 'garbage\n');
					await writeFile(path.join(dir, '000001.log'), Buffer.alloc(64, 0xab));
				},
			],
			[
				'a plain file',
				async (dir) => {
					await writeFile(path.join(dir, 'file'), 'just a file\n');
				},
			],
		];

		it.each(cases)('%s: exits 2 explaining why, probes nothing, and changes nothing', async (what, make) => {
			await make(store.dir);
			const target = what === 'a plain file' ? path.join(store.dir, 'file') : store.dir;
			const before = await snapshot(target);
			for (const args of [['sweep', '-q', server.url('/a')], ['stats']]) {
				const result = await runCli([...args, '--store', target]);
				expect(result.status, args[0]).toBe(2);
				expect(result.stderr).toMatch(new RegExp(`^revisit: cannot open store ${target.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .+\n$`));
				expect(result.stderr).not.toMatch(NO_STACK);
			}
			expect(server.requests).toHaveLength(0);
			expect(await snapshot(target)).toEqual(before);
		});
	});

	it('a store written by a newer revisit: exits 2 naming its format, and its contents stay as they were', async () => {
		expect((await runCli(['sweep', '--store', store.dir, '-q', server.url('/a')])).status).toBe(0);
		const db = new Level<string, unknown>(store.dir);
		await db.sublevel<string, unknown>('meta', { valueEncoding: 'json' }).put('format', 99);
		await db.close();
		const before = await dump(store.dir);
		expect(before.length).toBeGreaterThan(2);
		const seen = server.requests.length;

		for (const args of [['sweep', '-q', server.url('/a'), server.url('/b')], ['stats'], ['history']]) {
			const result = await runCli([...args, '--store', store.dir]);
			expect(result.status, args[0]).toBe(2);
			expect(result.stderr).toBe(`revisit: store ${store.dir} has format 99, newer than this revisit understands (1); upgrade revisit\n`);
		}
		expect(server.requests).toHaveLength(seen);
		expect(await dump(store.dir)).toEqual(before);
	});
});
