import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { describeNeeding, findProgram } from './debian.js';

/** How to get redis-server on Debian; named by the one skip line (test/helpers/redis-global.ts). */
export const REDIS_INSTALL = 'apt-get install -y redis-server';

/** redis-server's absolute path, or undefined when it is not installed. */
export const REDIS_SERVER = findProgram('redis-server');

/**
 * A describe block for tests that need redis-server: skipped (silently; the global setup
 * prints the one line) when it is missing, except under CI=true, where that fails.
 *
 * @example
 * describeRedis('RedisStore', () => { let redis: TestRedis; beforeAll(async () => (redis = await startRedis())); ... });
 */
export function describeRedis(name: string, body: () => void): void {
	describeNeeding({ name: 'redis-server', path: REDIS_SERVER, install: REDIS_INSTALL, quiet: true }, name, body);
}

/** A redis-server child on 127.0.0.1, without persistence, until `stop()`. */
export interface TestRedis {
	port: number;
	/** pid of the running server. */
	readonly pid: number;
	/** A store URL on this server (rediss://localhost with TLS); each test should use its own prefix. */
	url(prefix: string, db?: number): string;
	/** `redis-cli -p PORT ...args`: its stdout. */
	cli(args: string[]): Promise<string>;
	/** SIGKILL: the connection drops at once, as when a server dies. */
	kill(): Promise<void>;
	/** Starts it again on the same port (empty: there is no persistence). */
	restart(): Promise<void>;
	stop(): Promise<void>;
}

/**
 * Starts `redis-server --port P --bind 127.0.0.1 --save '' --appendonly no --dir TMP` on
 * a free port and waits until it answers PING. Stop it in afterAll.
 *
 * @example
 * const redis = await startRedis();
 * const store = await RedisStore.open(redis.url('t1:'));
 */
export async function startRedis(options: { tls?: TlsFiles; cluster?: boolean } = {}): Promise<TestRedis> {
	const dir = await mkdtemp(path.join(tmpdir(), 'revisit-redis-'));
	for (let attempt = 0; ; attempt++) {
		const port = await freePort();
		try {
			let child = await launch(port, dir, options);
			return {
				port,
				get pid() {
					return child.pid!;
				},
				url: (prefix, db = 0) => `${options.tls ? 'rediss://localhost' : 'redis://127.0.0.1'}:${port}/${db}?prefix=${encodeURIComponent(prefix)}`,
				cli: (args) => redisCli(port, args),
				kill: () => halt(child, 'SIGKILL'),
				restart: async () => {
					child = await launch(port, dir, options);
				},
				stop: async () => {
					await halt(child, 'SIGTERM');
					await rm(dir, { recursive: true, force: true });
				},
			};
		} catch (error) {
			// Another process took the port between freePort and redis-server's bind.
			if (attempt >= 4) throw error;
		}
	}
}

// Every server started here, so that a worker that exits early (a timed-out test) still stops them.
const running = new Set<ChildProcess>();
process.once('exit', () => {
	for (const child of running) child.kill('SIGKILL');
});

/** A server certificate (for localhost and 127.0.0.1) and its key, PEM files. */
export interface TlsFiles {
	cert: string;
	key: string;
}

async function launch(port: number, dir: string, { tls, cluster }: { tls?: TlsFiles; cluster?: boolean }): Promise<ChildProcess> {
	const listen = tls
		? [
				'--port',
				'0',
				'--tls-port',
				String(port),
				'--tls-cert-file',
				tls.cert,
				'--tls-key-file',
				tls.key,
				'--tls-ca-cert-file',
				tls.cert,
				'--tls-auth-clients',
				'no',
			]
		: ['--port', String(port)];
	const clustered = cluster ? ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000'] : [];
	const args = [...listen, ...clustered, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
	const child = spawn(REDIS_SERVER!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	running.add(child);
	child.once('exit', () => running.delete(child));
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`))));
	exited.catch(() => {});
	const deadline = Date.now() + 10_000;
	while (!(await Promise.race([ping(port, tls !== undefined), exited]))) {
		if (Date.now() > deadline) {
			await halt(child, 'SIGKILL');
			throw new Error(`redis-server did not answer on port ${port}: ${output.slice(-500)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return child;
}

function halt(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		child.once('exit', () => resolve());
		process.kill(child.pid!, signal);
	});
}

function ping(port: number, secure: boolean): Promise<boolean> {
	return new Promise((resolve) => {
		// Readiness only: the certificate is checked by the tests, not here.
		const socket = secure ? tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false }) : net.connect(port, '127.0.0.1');
		let reply = '';
		socket.setTimeout(1_000, () => socket.destroy());
		socket.on(secure ? 'secureConnect' : 'connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			reply += chunk.toString();
			if (reply.includes('\r\n')) socket.end();
		});
		socket.on('close', () => resolve(reply.startsWith('+PONG')));
		socket.on('error', () => {});
	});
}

async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

function redisCli(port: number, args: string[]): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile('redis-cli', ['-p', String(port), ...args], (error, stdout) => (error ? reject(error) : resolve(stdout)));
	});
}
