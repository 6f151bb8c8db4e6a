import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { BIN, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { findProgram } from '../helpers/debian.js';
import { startWatchOrigin, type WatchOrigin } from '../helpers/watch-origin.js';
import { waitFor } from '../helpers/wait-for.js';

const QUIET_CHECKS = ['--robots', 'ignore', '--audit', '0'];

/** Waits for `test` to hold, at most `ms` (an upper bound that proves it came, not a timing claim). */
describe('revisit watch says what it is doing', () => {
	let origin: WatchOrigin;
	let dir: { dir: string; cleanup(): Promise<void> };
	const store = () => path.join(dir.dir, 'store');
	const list = (name: string) => path.join(dir.dir, name);
	const urls = (...paths: string[]) => paths.map((page) => `${origin.url(page)}\n`).join('');
	const pages = (n: number) => Array.from({ length: n }, (_, i) => `/p${i}`);
	beforeEach(async () => {
		origin = await startWatchOrigin(0);
		dir = await tempDir();
	});
	afterEach(async () => {
		await origin.close();
		await dir.cleanup();
	});

	it('on a terminal, the progress line counts the URLs watched, the checks and the changes as they happen', async (context) => {
		const script = findProgram('script');
		if (script === undefined) {
			if (process.env['CI'] === 'true') throw new Error('script is not installed; CI=true needs it: apt-get install -y bsdutils');
			return context.skip('needs script (util-linux) for a pseudo-terminal');
		}
		await writeFile(list('urls.txt'), urls(...pages(5)));
		// stderr on a pseudo-terminal (util-linux script), stdout to a file.
		const command = [process.execPath, BIN, 'watch', '--store', store(), '--input', list('urls.txt'), '--rate', '100/s', ...QUIET_CHECKS]
			.map((arg) => `'${arg}'`)
			.join(' ');
		const child = spawn(script, ['-qfc', `${command} > '${list('out.txt')}'`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
		let tty = '';
		child.stdout.on('data', (chunk: Buffer) => (tty += chunk.toString()));
		const closed = new Promise((resolve) => child.on('close', resolve));
		const frames = () => tty.split(/\r\x1b\[K|\n/);
		try {
			await waitFor(
				() => frames().some((frame) => frame.startsWith('5 URLs watched, 5 checks, 5 changed, 0 errors, none due, ')),
				() => `a progress line with 5 checks; the terminal showed ${JSON.stringify(tty.slice(-400))}`,
			);
		} finally {
			child.kill('SIGTERM');
			await closed;
		}
	}, 30_000);

	it('without a terminal: the rate line at the start, a status line every --status-every, and a summary naming URLs watched and checks apart', async () => {
		const watch = spawnCli(['watch', '--store', store(), '--rate', '100/s', '--status-every', '1s', ...QUIET_CHECKS], urls(...pages(5)));
		let stderr = '';
		watch.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		try {
			await waitFor(
				() => /revisit: 5 URLs watched, 5 checks, 5 changed, 0 errors, none due, \d+s\n/.test(stderr),
				() => `a status line with 5 checks; stderr: ${stderr}`,
			);
		} finally {
			watch.child.kill('SIGTERM');
		}
		const { status } = await watch.done;
		expect(status).toBe(0);
		const lines = stderr.split('\n').filter(Boolean);
		// 5 URLs can take 5 checks an hour at --min-interval 1h: far from 100/s.
		expect(lines.find((line) => line.includes('--rate'))).toBe(
			'revisit: 5 URLs, --rate 100/s: no URL is checked more often than every 1h (--min-interval), so about 5/h of the rate can be spent now; ' +
				'the 5 new ones are checked first, then again after 1h, 2h, 4h, … while their rates are learnt',
		);
		expect(lines.at(-1)).toMatch(/^revisit: 5 URLs watched, 5 checks, 5 changed, 0 304s, 0 same-hash, 0 errors, .*; stopped by SIGTERM$/);
	}, 30_000);

	it('--status-every off writes no status line; a bad value names the flag', async () => {
		const run = await runCli(
			['watch', '--store', store(), '--rate', '100/s', '--status-every', 'off', '--time-scale', '3600', '--until', '2h', ...QUIET_CHECKS],
			urls('/a'),
		);
		expect(run.status).toBe(0);
		expect(run.stderr.split('\n').filter((line) => line.includes(' watched, ') && !line.includes(' 304s'))).toEqual([]);
		const bad = await runCli(['watch', '--store', store(), '--status-every', 'often'], '');
		expect(bad.status).toBe(2);
		expect(bad.stderr).toContain('--status-every must be a duration such as 30s, 15m or 1h, or off (got "often")');
	}, 30_000);

	it('SIGHUP and an edited --input say what the reading found: added, removed, unchanged', async () => {
		await writeFile(list('urls.txt'), urls('/a', '/b', '/c'));
		const watch = spawnCli(['watch', '--store', store(), '--input', list('urls.txt'), '--rate', '100/s', ...QUIET_CHECKS], '');
		let stderr = '';
		watch.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		try {
			await waitFor(
				() => stderr.includes('3 URLs, --rate 100/s'),
				() => `the start; stderr: ${stderr}`,
			);
			// The file as it was: nothing added, nothing removed.
			watch.child.kill('SIGHUP');
			await waitFor(
				() => stderr.includes(`${list('urls.txt')} read again: 0 added, 0 removed, 3 unchanged`),
				() => `the SIGHUP reading; stderr: ${stderr}`,
			);
			// An edit that adds one and removes none is said too.
			await writeFile(list('urls.txt'), urls('/a', '/b', '/c', '/d'));
			await waitFor(
				() => stderr.includes(`${list('urls.txt')} read again: 1 added, 0 removed, 3 unchanged`),
				() => `the edit's reading; stderr: ${stderr}`,
			);
			await writeFile(list('urls.txt'), urls('/a', '/d'));
			await waitFor(
				() => stderr.includes(`${list('urls.txt')} read again: 0 added, 2 removed, 2 unchanged`),
				() => `the second edit's reading; stderr: ${stderr}`,
			);
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
	}, 30_000);

	it('--quiet leaves out the status lines and the summary, not what the watch says at the start and on a re-read', async () => {
		await writeFile(list('urls.txt'), urls('/a', '/b'));
		const watch = spawnCli(['watch', '--store', store(), '--input', list('urls.txt'), '--rate', '100/s', '--status-every', '1s', '-q', ...QUIET_CHECKS], '');
		let stderr = '';
		watch.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		try {
			await waitFor(
				() => new Set(origin.hits.map((hit) => hit.path)).size === 2,
				() => 'both checked',
			);
			await writeFile(list('urls.txt'), urls('/a'));
			await waitFor(
				() => stderr.includes(`${list('urls.txt')} read again`),
				() => `the re-read; stderr: ${stderr}`,
			);
			// Long enough for a status line or two, were there any.
			await new Promise((resolve) => setTimeout(resolve, 2500));
		} finally {
			watch.child.kill('SIGTERM');
		}
		const done = await watch.done;
		expect(done.status).toBe(0);
		expect(done.stderr.split('\n').filter(Boolean)).toEqual([
			expect.stringMatching(/^revisit: 2 URLs, --rate 100\/s: /),
			`revisit: ${list('urls.txt')} read again: 0 added, 1 removed, 1 unchanged`,
		]);
	}, 30_000);

	it('says so when the threshold sits at its lowest for an hour of the schedule and the rate goes unspent', async () => {
		// 2 URLs can take 2 checks an hour of 2000 a day; a simulated day in 3 s.
		const run = await runCli(
			['watch', '--store', store(), '--rate', '2000/d', '--time-scale', '28800', '--until', '1d', '--status-every', 'off', ...QUIET_CHECKS],
			urls('/a', '/b'),
		);
		expect(run.status).toBe(0);
		expect(run.stderr).toMatch(
			new RegExp(
				String.raw`\nrevisit: the threshold has been at its lowest for \dh: the 2 URLs, each checked at most every 1h \(--min-interval\), took about [\d.]+\/` +
					String.raw`d of --rate 2000\/d; the rest is not spent\n`,
			),
		);
	}, 30_000);

	it('SIGHUP with nothing to read again says so', async () => {
		const watch = spawnCli(['watch', '--store', store(), '--rate', '100/s', ...QUIET_CHECKS], urls('/a'));
		let stderr = '';
		watch.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		try {
			await waitFor(
				() => stderr.includes('1 URL, --rate 100/s'),
				() => `the start; stderr: ${stderr}`,
			);
			watch.child.kill('SIGHUP');
			await waitFor(
				() => stderr.includes('SIGHUP: nothing to read again (no --input file or --sitemap)'),
				() => `the SIGHUP line; stderr: ${stderr}`,
			);
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
	}, 30_000);

	it('a URL listed by two inputs stays scheduled while either lists it', async () => {
		await writeFile(list('a.txt'), urls('/one', '/both'));
		await writeFile(list('b.txt'), urls('/both', '/two'));
		const watch = spawnCli(['watch', '--store', store(), '--input', list('a.txt'), '--input', list('b.txt'), '--rate', '100/s', ...QUIET_CHECKS], '');
		let stderr = '';
		watch.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		try {
			await waitFor(
				() => new Set(origin.hits.map((hit) => hit.path)).size === 3,
				() => 'the three checked',
			);
			await writeFile(list('a.txt'), urls('/one'));
			await waitFor(
				() => stderr.includes(`${list('a.txt')} read again`) || stderr.includes('no longer listed'),
				() => `a.txt read again; stderr: ${stderr}`,
			);
		} finally {
			watch.child.kill('SIGTERM');
		}
		expect((await watch.done).status).toBe(0);
		expect(stderr).toContain(`${list('a.txt')} read again: 0 added, 0 removed, 1 unchanged`);
		const scheduled = async () => {
			const level = await LevelStore.open(store());
			try {
				const queue = await level.dueQueue({ at0: 0, wall0: Date.now(), scale: 1 });
				return await queue.has(['/one', '/both', '/two'].map((page) => origin.url(page)));
			} finally {
				await level.close();
			}
		};
		expect(await scheduled()).toEqual([true, true, true]);

		// Once b.txt drops it too (read at the next start), it leaves.
		await writeFile(list('b.txt'), urls('/two'));
		const again = await runCli(
			['watch', '--store', store(), '--input', list('a.txt'), '--input', list('b.txt'), '--rate', '100/s', '--until', '2s', ...QUIET_CHECKS],
			'',
		);
		expect(again.status).toBe(0);
		expect(again.stderr).toContain(`${list('b.txt')}: 1 URL no longer listed, out of the schedule`);
		expect(await scheduled()).toEqual([true, false, true]);
	}, 30_000);
});
