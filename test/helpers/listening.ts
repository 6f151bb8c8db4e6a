import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';

/**
 * Waits until a server the test spawned accepts connections on 127.0.0.1:`port`, or
 * fails naming it, with what it said on stderr, once it exits or 10 s pass.
 *
 * @example
 * await listening(child, port, 'tinyproxy', () => stderr);
 */
export async function listening(child: ChildProcess, port: number, name: string, stderr: () => string): Promise<void> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const up = await new Promise<boolean>((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			socket.once('connect', () => (socket.destroy(), resolve(true)));
			socket.once('error', () => resolve(false));
		});
		if (up) return;
		if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${name} did not start: ${stderr()}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/**
 * GET with a Host header of our choosing (fetch sets its own): the status and the body.
 *
 * @example
 * const { status } = await getWithHost(9464, '/metrics', 'evil.example');
 */
export function getWithHost(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		http
			.get({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
				let body = '';
				response.on('data', (chunk: Buffer) => (body += chunk.toString()));
				response.on('end', () => resolve({ status: response.statusCode!, body }));
			})
			.on('error', reject);
	});
}
