import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTerminal } from '../../src/cli/terminal.js';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('revisit sweep as a pipe stage', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		server = await startServer((req, res) => res.end(`page ${req.url}`));
		store = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await store.cleanup();
	});

	it('prints verdicts while stdin is still open', async () => {
		const child = spawn(process.execPath, [BIN, 'sweep', '--store', store.dir, '-q']);
		child.stdin.write(`${server.url('/first')}\n`);
		const firstLine = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
		expect(firstLine).toBe(`${server.url('/first')}\n`);
		expect(child.exitCode).toBeNull();
		child.stdin.end(`${server.url('/second')}\n`);
		const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
		expect(exit).toBe(0);
	});

	it('stops quietly with status 141 when its reader goes away, and re-reports only what was not printed', async () => {
		const urls = Array.from({ length: 200 }, (_, i) => server.url(`/p${i}`));
		const child = spawn(process.execPath, [BIN, 'sweep', '--store', store.dir, '-q', '--concurrency', '2', '--per-host', '2']);
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.stdin.end(`${urls.join('\n')}\n`);
		const first = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
		child.stdout.destroy();
		const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
		expect(status).toBe(141);
		expect(stderr).toBe('');
		const printed = first.split('\n').filter(Boolean);
		const rerun = await spawnCli(['sweep', '--store', store.dir, '-q'], `${urls.join('\n')}\n`).done;
		const again = rerun.stdout.split('\n').filter(Boolean);
		// What the reader took was committed; what never reached the pipe was not. (Lines the OS
		// accepted into the pipe after the reader stopped reading count as printed: they were.)
		expect(again.length).toBeGreaterThan(0);
		expect(again.filter((url) => printed.includes(url))).toEqual([]);
		expect(printed.length + again.length).toBeLessThanOrEqual(urls.length);
	});
});

describe('createTerminal', () => {
	const capture = (isTTY: boolean) => {
		const stream = Object.assign(new PassThrough(), { isTTY });
		let text = '';
		stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
		return { stream, text: () => text };
	};

	it('draws progress only on a TTY, clearing it before diagnostics and the summary', async () => {
		const tty = capture(true);
		const terminal = createTerminal(tty.stream, { quiet: false });
		terminal.progress(() => '3 URLs');
		await new Promise((resolve) => setTimeout(resolve, 250));
		terminal.diagnose('line 2: bad');
		terminal.finish('done');
		expect(tty.text()).toBe('3 URLs\r\x1b[Krevisit: line 2: bad\nrevisit: done\n');
	});

	it('prints no progress when stderr is not a TTY, and no summary when quiet', async () => {
		const pipe = capture(false);
		const terminal = createTerminal(pipe.stream, { quiet: true });
		terminal.progress(() => '3 URLs');
		await new Promise((resolve) => setTimeout(resolve, 250));
		terminal.diagnose('line 2: bad');
		terminal.finish('done');
		expect(pipe.text()).toBe('revisit: line 2: bad\n');
	});
});
