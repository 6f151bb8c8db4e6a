import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { describeNeeding, findProgram } from '../helpers/debian.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait-for.js';
import { BINARY, documentedUnit, execStart, freePort, healthz, PAGE, runnableUnit, setting, startService, STATE, unit, UNIT_FILE } from './unit.js';

// The systemd unit docs/13-watch.md shows is config/systemd/revisit-watch.service, shipped
// in the package: the page must carry the file as it is, systemd must accept the file, and
// the command it starts must run as the unit runs it (its paths in the state and
// configuration directories, reloaded by SIGHUP, stopped by SIGTERM with exit 0).

describe(`the systemd unit in ${PAGE}`, () => {
	it(`is ${UNIT_FILE}, word for word`, () => {
		expect(documentedUnit()).toBe(unit());
	});

	it('starts the installed binary, and writes only in its StateDirectory', () => {
		const exec = setting(unit(), 'ExecStart').split(/\s+/);
		expect(exec[0]).toBe(BINARY);
		expect(setting(unit(), 'StateDirectory')).toBe('revisit');
		expect(setting(unit(), 'ProtectSystem')).toBe('strict');
		expect(setting(unit(), 'ExecReload')).toBe('/bin/kill -HUP $MAINPID');
		// ProtectSystem=strict leaves only /var/lib/revisit writable: the store and every file sink go there.
		for (const flag of ['--store', '--atom', '--warc', '--cookie-jar']) {
			const at = exec.indexOf(flag);
			if (at >= 0) expect(exec[at + 1], flag).toMatch(new RegExp(`^${STATE}/`));
		}
	});
});

describeNeeding(
	{ name: 'systemd-analyze', path: findProgram('systemd-analyze'), install: 'apt-get install -y --no-install-recommends systemd' },
	`systemd-analyze verify ${UNIT_FILE}`,
	() => {
		let dir: { dir: string; cleanup(): Promise<void> };
		beforeEach(async () => {
			dir = await tempDir('revisit-unit-');
		});
		afterEach(async () => {
			await dir.cleanup();
		});

		it('accepts it without a warning (its binary pointed at this checkout)', async () => {
			// The file's name is the unit's name, which verify checks too.
			const file = path.join(dir.dir, path.basename(UNIT_FILE));
			await writeFile(file, runnableUnit());
			const child = spawn(findProgram('systemd-analyze')!, ['verify', file], { cwd: dir.dir, env: { ...process.env, SYSTEMD_LOG_COLOR: '0' } });
			let output = '';
			child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
			const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
			// An unknown or misspelt setting is only a warning ("Unknown key …, ignoring"), with exit 0.
			expect(output).toBe('');
			expect(status).toBe(0);
		});
	},
);

describe(`the command ${UNIT_FILE} starts`, () => {
	let root: { dir: string; cleanup(): Promise<void> };
	let site: TestServer;
	beforeEach(async () => {
		root = await tempDir('revisit-service-');
		site = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			res.writeHead(200, { 'content-type': 'text/html', etag: '"1"' }).end(`<p>${req.url}</p>`);
		});
	});
	afterEach(async () => {
		await site.close();
		await root.cleanup();
	});

	it('runs as written: prints changed URLs on stdout, keeps its store in the state directory, reloads on SIGHUP, stops on SIGTERM with exit 0', async () => {
		const state = path.join(root.dir, 'state');
		const config = path.join(root.dir, 'config');
		await mkdir(state);
		await mkdir(config);
		await writeFile(path.join(config, 'urls.txt'), `${site.url('/a')}\n`);
		const port = await freePort();
		// The unit's own command line, with its directories (which systemd makes) in a temporary one.
		const args = execStart([process.execPath, BIN], { state, config }, port);
		for (const arg of args.slice(2)) if (arg.startsWith('/')) expect(arg.startsWith(root.dir), arg).toBe(true);
		const { child, output, done } = startService(args, state);
		try {
			await waitFor(() => output.stdout.includes(site.url('/a')), `${site.url('/a')} on stdout (stderr: ${output.stderr})`);
			expect(await healthz(port)).toBe(200);

			// systemctl reload: SIGHUP reads the list again, and the watch goes on.
			await appendFile(path.join(config, 'urls.txt'), `${site.url('/b')}\n`);
			child.kill('SIGHUP');
			await waitFor(() => output.stdout.includes(site.url('/b')), `${site.url('/b')} on stdout after SIGHUP`);
			expect(await healthz(port)).toBe(200);

			// systemctl stop: SIGTERM, then exit 0 (Restart=on-failure leaves it stopped).
			child.kill('SIGTERM');
			expect(await done).toEqual({ status: 0, signal: null });
		} finally {
			child.kill('SIGKILL');
		}
		const { stdout, stderr } = output;
		expect(stdout.trim().split('\n')).toEqual([site.url('/a'), site.url('/b')]);
		// --quiet: the journal gets the address it listens on, what the rate means for the list,
		// what the reload found (the edit and the SIGHUP may make one reading or two), and
		// otherwise only what goes wrong: no status lines, no summary.
		const lines = stderr.split('\n').filter(Boolean);
		const list = path.join(config, 'urls.txt');
		expect(lines.slice(0, 2)).toEqual([
			`revisit: listening on http://127.0.0.1:${port}/`,
			expect.stringMatching(/^revisit: 1 URL, --rate 5000\/h: no URL is checked more often than every 1h/),
		]);
		expect(lines.slice(2)).toContain(`revisit: ${list} read again: 1 added, 0 removed, 1 unchanged`);
		for (const line of lines.slice(2))
			expect([`revisit: ${list} read again: 1 added, 0 removed, 1 unchanged`, `revisit: ${list} read again: 0 added, 0 removed, 2 unchanged`]).toContain(line);
		expect(existsSync(path.join(state, 'store'))).toBe(true);
		// Nothing but the state directory was written to (the feed comes with a first change, not a first sight).
		expect(readdirSync(root.dir).sort()).toEqual(['config', 'state']);
		expect(readdirSync(config)).toEqual(['urls.txt']);
	});
});
