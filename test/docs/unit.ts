import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN } from '../helpers/cli.js';

// The systemd unit config/systemd/revisit-watch.service as the docs tests read and run it:
// test/docs/systemd.test.ts (the unit itself, run from this checkout) and
// test/docs/service-install.test.ts (run from the package installed as docs/13-watch.md says).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const UNIT_FILE = 'config/systemd/revisit-watch.service';
export const PAGE = 'docs/13-watch.md';
const HEADING = '## Running it as a service';
export const BINARY = '/usr/local/bin/revisit';
export const STATE = '/var/lib/revisit';
export const CONFIG = '/etc/revisit';

export const unit = (): string => readFileSync(path.join(ROOT, UNIT_FILE), 'utf8');

/** The first ```ini block of the page's section on services, as its lines are. */
export function documentedUnit(): string | undefined {
	const page = readFileSync(path.join(ROOT, PAGE), 'utf8');
	const section = page.slice(page.indexOf(HEADING));
	const block = /^```ini\n([\s\S]*?)^```$/m.exec(section);
	return block?.[1];
}

/** A [Service] setting's value, continuation lines joined (as systemd reads them). */
export function setting(text: string, key: string): string {
	const lines = text.replace(/\\\n/g, ' ').split('\n');
	const line = lines.find((one) => one.startsWith(`${key}=`));
	if (line === undefined) throw new Error(`${UNIT_FILE} has no ${key}=`);
	return line.slice(key.length + 1).trim();
}

/** The unit with its ExecStart binary replaced by node running this checkout's bin/revisit.js. */
export const runnableUnit = (): string => unit().replace(`ExecStart=${BINARY} `, `ExecStart=${process.execPath} ${BIN} `);

export async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** The unit's ExecStart as a command line: its binary replaced by `binary`, its directories (which systemd makes) and port by the test's. */
export function execStart(binary: string[], dirs: { state: string; config: string }, port: number): string[] {
	const [, ...args] = setting(unit(), 'ExecStart').split(/\s+/);
	return [
		...binary,
		...args.map((arg) =>
			arg
				.replace(STATE, dirs.state)
				.replace(CONFIG, dirs.config)
				.replace(/^127\.0\.0\.1:9464$/, `127.0.0.1:${port}`),
		),
	];
}

/** Starts a command line as systemd would: no REVISIT_* variables, in the state directory. */
export function startService(args: string[], cwd: string) {
	const env = { ...process.env };
	for (const name of Object.keys(env)) if (name.startsWith('REVISIT_')) delete env[name];
	const child = spawn(args[0]!, args.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
	const output = { stdout: '', stderr: '' };
	child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
	const done = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.on('close', (status, signal) => resolve({ status, signal })),
	);
	return { child, output, done };
}

export function healthz(port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		http.get({ host: '127.0.0.1', port, path: '/healthz' }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject);
	});
}
