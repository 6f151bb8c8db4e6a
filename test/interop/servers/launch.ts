import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, openSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A real web server running as a child process group, until `stop()`. */
export interface RunningServer {
	name: string;
	/** `http://127.0.0.1:PORT` */
	origin: string;
	/** The child's pid, also its process group id (spawned detached). */
	pid: number;
	/** Kills the child's whole process group and waits until every member has exited. */
	stop(): Promise<void>;
}

/** What `launch` runs: a foreground command that logs to `dir` and listens on 127.0.0.1:`port`. */
export interface Command {
	command: string;
	args: string[];
	env?: NodeJS.ProcessEnv;
}

const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** The absolute path of a program on PATH (or in an sbin directory, where Debian puts servers), or undefined. */
export function findBinary(name: string): string | undefined {
	const dirs = [...(process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean), ...SBIN];
	for (const dir of dirs) {
		const candidate = path.join(dir, name);
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {
			// not here
		}
	}
	return undefined;
}

/** A port that was free on 127.0.0.1 a moment ago (bind to 0, read it, close). */
export async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/**
 * A temporary directory that servers dropping root privileges (Apache's www-data,
 * h2o's nobody, varnish's vcache) can read.
 */
export async function openTempDir(prefix: string): Promise<string> {
	const dir = await mkdtemp(path.join(tmpdir(), prefix));
	await chmod(dir, 0o755);
	return dir;
}

// Every process group started here, so that a worker that exits early (a timed-out
// test) still kills them.
const groups = new Set<number>();
process.once('exit', () => {
	for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
});

// What nginx, Apache, lighttpd, Caddy, h2o, varnishd and Python all say when the port is taken.
const IN_USE = /address already in use/i;

/**
 * Starts a server in the foreground as the leader of a new process group: picks a free
 * port, lets `prepare` write its config into a fresh temp dir, spawns it (output to
 * `dir/output.log`), and waits until it serves a token file from `docroot` (so a
 * stranger that took the port in the meantime is not mistaken for it). Retries with
 * another port if the port was taken. `stop()` kills the group by its pid.
 *
 * @example
 * const server = await launch('nginx', root, async (dir, port) => ({ command: 'nginx', args: [...] }));
 * try { ... } finally { await server.stop(); }
 */
export async function launch(
	name: string,
	docroot: string,
	prepare: (dir: string, port: number) => Promise<Command>,
	options: { readyTimeoutMs?: number; attempts?: number } = {},
): Promise<RunningServer> {
	const { readyTimeoutMs = 30_000, attempts = 3 } = options;
	const dir = await openTempDir(`revisit-interop-${name}-`);
	const token = `ready-${randomBytes(8).toString('hex')}`;
	const tokenFile = path.join(docroot, `${token}.txt`);
	try {
		await writeFile(tokenFile, token);
		for (let attempt = 1; ; attempt++) {
			const port = await freePort();
			const command = await prepare(dir, port);
			await removeLogs(dir);
			const child = spawnGroup(command, path.join(dir, 'output.log'));
			const origin = `http://127.0.0.1:${port}`;
			const outcome = await waitReady(child, `${origin}/${token}.txt`, token, readyTimeoutMs);
			if (outcome === 'ready') {
				return {
					name,
					origin,
					pid: child.pid!,
					stop: async () => {
						await stopGroup(child);
						await rm(dir, { recursive: true, force: true });
					},
				};
			}
			await stopGroup(child);
			const logs = await readLogs(dir);
			if (outcome === 'exited' && IN_USE.test(logs) && attempt < attempts) continue;
			const tail = logs.trim().split('\n').slice(-8).join('\n');
			throw new Error(
				`${name} (${command.command} ${command.args.join(' ')}) ${outcome === 'exited' ? 'exited' : `did not answer within ${readyTimeoutMs} ms`}:\n${tail}`,
			);
		}
	} catch (error) {
		await rm(dir, { recursive: true, force: true });
		throw error;
	} finally {
		await unlink(tokenFile).catch(() => {});
	}
}

/** Every server here logs to *.log files in its temp dir (its own error log, and its stdout/stderr in output.log). */
async function readLogs(dir: string): Promise<string> {
	const files = (await readdir(dir)).filter((file) => file.endsWith('.log'));
	const texts = await Promise.all(files.map((file) => readFile(path.join(dir, file), 'utf8').catch(() => '')));
	return texts.join('\n');
}

async function removeLogs(dir: string): Promise<void> {
	const files = (await readdir(dir)).filter((file) => file.endsWith('.log'));
	await Promise.all(files.map((file) => rm(path.join(dir, file), { force: true })));
}

function spawnGroup(command: Command, log: string): ChildProcess {
	const out = openSync(log, 'w');
	try {
		const child = spawn(findBinary(command.command) ?? command.command, command.args, {
			detached: true,
			stdio: ['ignore', out, out],
			env: { ...process.env, ...command.env },
		});
		if (child.pid !== undefined) groups.add(child.pid);
		child.on('error', () => {}); // a missing binary shows as an early exit
		return child;
	} finally {
		closeSync(out);
	}
}

async function waitReady(child: ChildProcess, url: string, token: string, timeoutMs: number): Promise<'ready' | 'exited' | 'timeout'> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (exited(child)) return 'exited';
		if ((await get(url)) === token) return exited(child) ? 'exited' : 'ready';
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return 'timeout';
}

function get(url: string): Promise<string | undefined> {
	return new Promise((resolve) => {
		const request = http.get(url, { agent: false, timeout: 1000 }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => resolve(response.statusCode === 200 ? Buffer.concat(chunks).toString() : undefined));
			response.on('error', () => resolve(undefined));
		});
		request.on('timeout', () => request.destroy());
		request.on('error', () => resolve(undefined));
	});
}

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null || child.pid === undefined;

/** SIGTERM to the group, SIGKILL after 5 s; resolves when no live member is left. */
async function stopGroup(child: ChildProcess): Promise<void> {
	const pgid = child.pid;
	if (pgid === undefined) return;
	signalGroup(pgid, 'SIGTERM');
	if (!(await groupGone(child, pgid, 5000))) {
		signalGroup(pgid, 'SIGKILL');
		if (!(await groupGone(child, pgid, 5000))) throw new Error(`process group ${pgid} survived SIGKILL`);
	}
	groups.delete(pgid);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch {
		// already gone
	}
}

async function groupGone(child: ChildProcess, pgid: number, timeoutMs: number): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (exited(child) && liveMembers(pgid) === 0) return true;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	return false;
}

/**
 * Processes of the group that are not zombies. Zombies don't count: a grandchild whose
 * parent died is reparented to PID 1, which in a container may never reap it.
 */
function liveMembers(pgid: number): number {
	let entries: string[];
	try {
		entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
	} catch {
		// No /proc: fall back to kill(0), which counts zombies too.
		try {
			process.kill(-pgid, 0);
			return 1;
		} catch {
			return 0;
		}
	}
	let live = 0;
	for (const pid of entries) {
		let stat: string;
		try {
			stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		} catch {
			continue;
		}
		// pid (comm) state ppid pgrp …; comm may contain spaces and parentheses.
		const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(pgrp) === pgid && state !== 'Z') live++;
	}
	return live;
}

/** Process groups started here and not yet stopped (for a no-leftovers check). */
export function liveGroups(): number[] {
	return [...groups].filter((pgid) => liveMembers(pgid) > 0);
}
