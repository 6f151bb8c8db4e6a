import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { IncomingHttpHeaders } from 'node:http';
import { findProgram, type Needed } from './debian.js';

/** iproute2's `ip`, which makes the test host: a network namespace joined to this one by a veth pair (root only). */
export const IPROUTE2: Needed = {
	name: 'iproute2 (and root, for network namespaces)',
	path: process.getuid?.() === 0 ? findProgram('ip') : undefined,
	install: 'apt-get install -y --no-install-recommends iproute2',
};

/** A page the test host serves. */
export interface PublicPage {
	status?: number;
	headers?: Record<string, string>;
	body: string;
}

/** A request the test host saw. */
export interface PublicRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
}

/** A "public" web site: a host of its own, at an address --deny-private lets through. */
export interface PublicHost {
	/** `http://203.0.113.N:PORT` */
	origin: string;
	url(path: string): string;
	requests: PublicRequest[];
	close(): Promise<void>;
}

const ORIGIN_SCRIPT = fileURLToPath(new URL('./public-origin.mjs', import.meta.url));
const ip = (...args: string[]) => execFileSync(IPROUTE2.path!, args, { stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * Makes a test host in a network namespace of its own, joined to this one by a veth pair
 * on a /30 of TEST-NET-3 (203.0.113.0/24: documentation addresses, not private, so
 * `--deny-private` lets them through, and routed only to the pair), and serves `pages`
 * from it (test/helpers/public-origin.mjs, run in the namespace). `close` stops the server
 * and deletes the namespace, which takes the pair with it. No traffic leaves the machine.
 *
 * @example
 * const site = await startPublicHost({ '/': { body: '<p>hi</p>' } });
 * try { … site.url('/') … } finally { await site.close(); }
 */
export async function startPublicHost(pages: Record<string, PublicPage>): Promise<PublicHost> {
	// A /30 per host: the pid and a counter spread the tests of parallel workers apart; one taken is skipped.
	let made: { ns: string; hostSide: string; address: string } | undefined;
	for (let attempt = 0; attempt < 64 && !made; attempt++) {
		const slot = (process.pid + attempt) % 63;
		const ns = `rvpub${slot}`;
		const hostSide = `rvh${slot}`;
		try {
			ip('netns', 'add', ns);
		} catch {
			continue;
		}
		try {
			ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', `rvn${slot}`);
			ip('link', 'set', `rvn${slot}`, 'netns', ns);
			ip('addr', 'add', `203.0.113.${slot * 4 + 1}/30`, 'dev', hostSide);
			ip('link', 'set', hostSide, 'up');
			ip('-n', ns, 'addr', 'add', `203.0.113.${slot * 4 + 2}/30`, 'dev', `rvn${slot}`);
			ip('-n', ns, 'link', 'set', `rvn${slot}`, 'up');
			ip('-n', ns, 'link', 'set', 'lo', 'up');
			made = { ns, hostSide, address: `203.0.113.${slot * 4 + 2}` };
		} catch (error) {
			ip('netns', 'del', ns);
			throw error;
		}
	}
	if (!made) throw new Error('no free test host slot (rvpub0 to rvpub62 all exist)');
	const { ns, address } = made;
	const child = spawn(IPROUTE2.path!, ['netns', 'exec', ns, process.execPath, ORIGIN_SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
	child.stdin.end(JSON.stringify({ host: address, pages }));
	const requests: PublicRequest[] = [];
	const lines = createInterface({ input: child.stdout });
	const port = await new Promise<number>((resolve, reject) => {
		child.once('exit', (code) => reject(new Error(`the test host's server exited with ${code}`)));
		lines.on('line', (line) => {
			const said = JSON.parse(line) as { port?: number } & PublicRequest;
			if (said.port !== undefined) resolve(said.port);
			else requests.push(said);
		});
	});
	const origin = `http://${address}:${port}`;
	return {
		origin,
		url: (path) => `${origin}${path}`,
		requests,
		async close() {
			if (child.exitCode === null && child.signalCode === null) {
				const exited = new Promise((resolve) => child.once('exit', resolve));
				child.kill('SIGTERM');
				await exited;
			}
			ip('netns', 'del', ns);
		},
	};
}
