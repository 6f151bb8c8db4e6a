import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait-for.js';
import { BINARY, execStart, freePort, healthz, PAGE, startService, UNIT_FILE } from './unit.js';

// docs/13-watch.md installs revisit for its systemd unit as a packed package, copied under
// the global prefix /usr/local (npm install -g of a checkout links to it instead, and the
// unit's ProtectHome=yes hides a checkout under /home or /root). Here the package is packed
// as the page says, installed into an empty prefix standing for /usr/local, and the unit's
// ExecStart is run from it.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const unreachable = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|ECONNRESET|ENOTCACHED/;

function run(command: string, args: string[], cwd: string) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
	return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

describe(`revisit installed for ${UNIT_FILE} as ${PAGE} says`, () => {
	let work: { dir: string; cleanup(): Promise<void> };
	let prefix: string;
	let install: { status: number; output: string };
	let site: TestServer;
	beforeAll(async () => {
		work = await tempDir('revisit-install-');
		prefix = path.join(work.dir, 'usr', 'local');
		site = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			res.writeHead(200, { 'content-type': 'text/html', etag: '"1"' }).end(`<p>${req.url}</p>`);
		});
		// `npm run package` is npm run build, then this (the suite runs after a build).
		const pack = run(process.execPath, [path.join(ROOT, 'scripts/pack.js'), work.dir], ROOT);
		expect(pack.status, pack.output).toBe(0);
		const tarball = pack.output.trim().split('\n').at(-1)!;
		const args = ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball];
		// From the npm cache when it holds every dependency (npm ci filled it), else from the registry.
		install = run('npm', [...args, '--offline'], work.dir);
		if (install.status !== 0) install = run('npm', [...args, '--prefer-offline'], work.dir);
	}, 170_000);
	afterAll(async () => {
		await site?.close();
		await work?.cleanup();
	});

	it('is a copy under the prefix, not a link to the checkout, installed without a word about a prepare script', (context) => {
		if (install.status !== 0 && unreachable.test(install.output))
			return context.skip('the npm registry is unreachable and the npm cache lacks packages to install revisit');
		expect(install.status, install.output).toBe(0);
		expect(install.output).not.toMatch(/prepare/);
		expect(lstatSync(path.join(prefix, 'lib/node_modules/revisit')).isSymbolicLink()).toBe(false);
		const binary = path.join(prefix, BINARY.replace('/usr/local/', ''));
		expect(realpathSync(binary)).toBe(path.join(realpathSync(prefix), 'lib/node_modules/revisit/bin/revisit.js'));
	});

	it("runs the unit's ExecStart from the prefix: checks the list, serves /healthz, stops on SIGTERM with exit 0", { timeout: 60_000 }, async (context) => {
		if (install.status !== 0) return context.skip('not installed (see the test before)');
		const state = path.join(work.dir, 'state');
		const config = path.join(work.dir, 'config');
		await mkdir(state);
		await mkdir(config);
		await writeFile(path.join(config, 'urls.txt'), `${site.url('/a')}\n`);
		const port = await freePort();
		const { child, output, done } = startService(execStart([path.join(prefix, 'bin/revisit')], { state, config }, port), state);
		try {
			await waitFor(() => output.stdout.includes(site.url('/a')), `${site.url('/a')} on stdout (stderr: ${output.stderr})`);
			expect(await healthz(port)).toBe(200);
			child.kill('SIGTERM');
			expect(await done).toEqual({ status: 0, signal: null });
		} finally {
			child.kill('SIGKILL');
		}
		expect(output.stdout).toBe(`${site.url('/a')}\n`);
		expect(existsSync(path.join(state, 'store'))).toBe(true);
	});
});
