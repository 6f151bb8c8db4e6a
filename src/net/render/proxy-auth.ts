import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';

/** The user name of the guard proxy's credential: only its password is secret. */
const PROXY_USER = 'revisit';

/** The guard proxy's credential: what Chromium is given through its proxy settings, and the header it then sends. */
export interface ProxyCredential {
	readonly username: string;
	readonly password: string;
	/** Whether a request's `Proxy-Authorization` carries this credential, compared in constant time. */
	accepts(headers: IncomingHttpHeaders): boolean;
}

/**
 * A new random credential for one browser's proxy (192 bits): every other client of the
 * proxy, another user's process on this machine above all, is answered 407.
 *
 * @example
 * const credential = newProxyCredential();
 * await browser.newContext({ proxy: { server, username: credential.username, password: credential.password } });
 */
export function newProxyCredential(): ProxyCredential {
	const password = randomBytes(24).toString('base64url');
	const expected = Buffer.from(`Basic ${Buffer.from(`${PROXY_USER}:${password}`).toString('base64')}`);
	return {
		username: PROXY_USER,
		password,
		accepts(headers) {
			const given = Buffer.from(String(headers['proxy-authorization'] ?? ''));
			return given.length === expected.length && timingSafeEqual(given, expected);
		},
	};
}

/** Whether a request came with a `Proxy-Authorization` at all (a wrong one is an attempt; none is Chromium's first ask, or a stranger's). */
export function triedCredential(headers: IncomingHttpHeaders): boolean {
	return headers['proxy-authorization'] !== undefined;
}

/**
 * The uid that owns the client end of a TCP connection on 127.0.0.1 (Linux's
 * /proc/net/tcp, as identd reads it), `clientPort` being the connection's remote port
 * as the server sees it and `serverPort` its own; undefined where that table is not
 * there (another system) or has no such row (the client is gone).
 *
 * @example
 * await peerUid(socket.remotePort!, socket.localPort!) // 65534, for a client run as nobody
 */
export async function peerUid(clientPort: number, serverPort: number, table = '/proc/net/tcp'): Promise<number | undefined> {
	const text = await readFile(table, 'latin1').catch(() => '');
	const local = `:${hexPort(clientPort)}`;
	const remote = `:${hexPort(serverPort)}`;
	for (const line of text.split('\n').slice(1)) {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid …
		const fields = line.trim().split(/\s+/);
		if (fields[1]?.endsWith(local) && fields[2]?.endsWith(remote)) return Number(fields[7]);
	}
	return undefined;
}

function hexPort(port: number): string {
	return port.toString(16).toUpperCase().padStart(4, '0');
}
