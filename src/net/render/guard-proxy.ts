import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { assertPublicHost, denyPrivateLookup } from '../http/guard.js';
import { newProxyCredential, peerUid, triedCredential, type ProxyCredential } from './proxy-auth.js';

/** What the guard lets through: the run's `--deny-private` and its per-URL check (robots.txt, private literals). */
export interface GuardPolicy {
	/** Refuse private, loopback and link-local addresses after DNS, the address pinned for the connection. */
	denyPrivate: boolean;
	/** Whether a URL may be requested; for a CONNECT tunnel (https, wss), asked of its origin. */
	allow?: ((url: string) => boolean | Promise<boolean>) | undefined;
}

/** The browser's forward proxy, in this process on loopback. */
export interface GuardProxy {
	/** `http://127.0.0.1:PORT`, for Chromium's `--proxy-server`. */
	readonly server: string;
	/** The policy in force; a run sets its own before its first render. */
	policy: GuardPolicy;
	/** Requests and tunnels refused so far, by the URL or origin asked for. */
	readonly refused: string[];
	/** The browser's credential: every request without it is answered 407. */
	readonly credential: ProxyCredential;
	/** Requests and tunnels answered 407 so far (Chromium's own first ask of each connection among them). */
	readonly unauthenticated: { count: number };
	close(): Promise<void>;
}

/** What the proxy tells besides its answers. */
export interface GuardHooks {
	/** One line for a client that is not the browser: another uid, or a wrong credential. */
	onStranger?: ((line: string) => void) | undefined;
}

/** Hop-by-hop headers, and the proxy's own: never passed on. */
const HOP = new Set([
	'connection',
	'keep-alive',
	'proxy-connection',
	'proxy-authorization',
	'proxy-authenticate',
	'te',
	'trailer',
	'transfer-encoding',
	'upgrade',
]);
/** Refused answers carry this, so that a test (or a curious user) can tell them from the origin's own 403. */
const REFUSED_HEADER = 'x-revisit-refused';
/** What a 407 asks for: Basic, the scheme Chromium answers with the credential its proxy settings give. */
const PROXY_CHALLENGE = 'Basic realm="revisit render guard"';
/** How long a refused list grows before it keeps only its newest entries. */
const REFUSED_KEPT = 1000;
/** Lines said about strangers per proxy; past this they are counted, not said. */
const STRANGER_LINES = 20;

/**
 * Starts the forward proxy every request of a rendered page goes through (Chromium is
 * launched with `--proxy-server` pointing here and loopback not bypassed): plain http://
 * requests are checked whole (the URL by `policy.allow`, the address by the guarded lookup)
 * and sent on; CONNECT tunnels (https://, ws:// and wss://) are checked by their host and
 * port. The address a name resolved to is the one connected to, so a name cannot resolve
 * to a public address for the check and a private one for the connection.
 *
 * It listens on 127.0.0.1, where every user of the machine can connect: only a client
 * with its random credential (`proxy.credential`, which Chromium is given through its
 * proxy settings) is served; any other gets 407, and one from another uid, or with a
 * wrong credential, a line through `hooks.onStranger`. (A client of this uid with no
 * credential is Chromium itself, asking before it is challenged: counted, not said.)
 *
 * @example
 * const proxy = await startGuardProxy({ denyPrivate: true });
 * const browser = await chromium.launch({ args: [`--proxy-server=${proxy.server}`, '--proxy-bypass-list=<-loopback>'] });
 * await browser.newContext({ proxy: { server: proxy.server, username: proxy.credential.username, password: proxy.credential.password } });
 */
export async function startGuardProxy(policy: GuardPolicy, hooks: GuardHooks = {}): Promise<GuardProxy> {
	const refused: string[] = [];
	const credential = newProxyCredential();
	const unauthenticated = { count: 0 };
	let said = 0;
	const say = (line: string) => {
		said++;
		if (said <= STRANGER_LINES) hooks.onStranger?.(line);
		else if (said === STRANGER_LINES + 1) hooks.onStranger?.('render guard proxy: more clients refused; no more are said');
	};
	/**
	 * Answers 407 (with `answer`) to a request without the credential, and says so when it
	 * came from a stranger; the client's uid is read before the answer, while its socket is
	 * still open (a closed one has left the kernel's table).
	 */
	const refuseStranger = async (request: http.IncomingMessage, answer: () => void): Promise<void> => {
		unauthenticated.count++;
		const tried = triedCredential(request.headers);
		const { remotePort, localPort } = request.socket;
		const asking = said <= STRANGER_LINES && hooks.onStranger !== undefined && remotePort !== undefined && localPort !== undefined;
		const uid = asking ? await peerUid(remotePort, localPort) : undefined;
		answer();
		// Unknown (no /proc) or this uid without a credential: Chromium's own first ask.
		if (!asking || (!tried && (uid === undefined || uid === process.getuid?.()))) return;
		const who = uid === undefined ? 'a client' : `a client of uid ${uid}`;
		say(
			`render guard proxy 127.0.0.1:${localPort}: refused ${who} (${request.method ?? '?'}, ${tried ? 'a wrong credential' : 'no credential'}): ` +
				`only revisit's own browser may use it (407)`,
		);
	};
	const sockets = new Set<net.Socket | Duplex>();
	const refuse = (what: string) => {
		refused.push(what);
		if (refused.length > REFUSED_KEPT) refused.splice(0, refused.length - REFUSED_KEPT);
	};
	// Its own keep-alive agent, whose sockets were all connected under the policy in force:
	// another process-wide agent could hand over a socket that no guarded lookup ever made.
	let agent = new http.Agent({ keepAlive: true });
	const server = http.createServer((request, response) => {
		if (credential.accepts(request.headers)) return void forward(guard, agent, request, response, refuse);
		request.resume();
		void refuseStranger(request, () => response.writeHead(407, { 'proxy-authenticate': PROXY_CHALLENGE, 'content-length': '0' }).end());
	});
	server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
		client.on('error', () => undefined);
		if (credential.accepts(request.headers)) return void tunnel(guard, request, client, head, refuse);
		void refuseStranger(request, () =>
			client.end(`HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: ${PROXY_CHALLENGE}\r\ncontent-length: 0\r\n\r\n`),
		);
	});
	server.on('connection', (socket: net.Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	let current = policy;
	const guard: GuardProxy = {
		server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		get policy() {
			return current;
		},
		set policy(next) {
			// A socket kept alive under a looser policy is not reused under a stricter one.
			if (next.denyPrivate !== current.denyPrivate) {
				agent.destroy();
				agent = new http.Agent({ keepAlive: true });
			}
			current = next;
		},
		refused,
		credential,
		unauthenticated,
		close: () =>
			new Promise<void>((resolve) => {
				agent.destroy();
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
	return guard;
}

/** Whether `url` may be asked for under `policy`: a private literal refused before any lookup. */
async function permitted(policy: GuardPolicy, url: string): Promise<boolean> {
	try {
		if (policy.denyPrivate) assertPublicHost(url);
		return policy.allow ? await policy.allow(url) : true;
	} catch {
		return false;
	}
}

/** One plain http:// request, sent on through the guarded lookup, its answer streamed back as it comes. */
async function forward(
	guard: GuardProxy,
	agent: http.Agent,
	request: http.IncomingMessage,
	response: http.ServerResponse,
	refuse: (what: string) => void,
): Promise<void> {
	const policy = guard.policy;
	let target: URL;
	try {
		target = new URL(request.url ?? '');
		if (target.protocol !== 'http:') throw new Error('not http');
	} catch {
		response.writeHead(400, { 'content-type': 'text/plain' }).end('revisit guard: only absolute http:// URLs\n');
		return;
	}
	// Chromium's component updater asks even under --disable-component-update: the browser's own, never the page's, so never sent.
	const updater = Object.keys(request.headers).some((name) => name.startsWith('x-goog-update-'));
	if (updater || !(await permitted(policy, target.href))) {
		refuse(target.href);
		request.resume();
		response.writeHead(403, { 'content-type': 'text/plain', [REFUSED_HEADER]: '1' }).end('refused by revisit (robots.txt or --deny-private)\n');
		return;
	}
	const headers: http.OutgoingHttpHeaders = {};
	for (const [name, value] of Object.entries(request.headers)) if (!HOP.has(name) && value !== undefined) headers[name] = value;
	const outgoing = http.request(
		{
			host: target.hostname.replace(/^\[|\]$/g, ''),
			port: target.port || 80,
			path: `${target.pathname}${target.search}`,
			method: request.method,
			headers,
			agent,
			// The guarded lookup's address is the one the socket connects to: nothing resolves twice.
			...(policy.denyPrivate ? { lookup: denyPrivateLookup() as unknown as net.LookupFunction } : {}),
		},
		(answer) => {
			const back: http.OutgoingHttpHeaders = {};
			for (const [name, value] of Object.entries(answer.headers)) if (!HOP.has(name) && value !== undefined) back[name] = value;
			response.writeHead(answer.statusCode ?? 502, answer.statusMessage, back);
			answer.pipe(response);
			answer.once('error', () => response.destroy());
		},
	);
	outgoing.once('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPRIVATE') refuse(target.href);
		if (response.headersSent) return void response.destroy();
		response
			.writeHead(502, { 'content-type': 'text/plain', ...(error.code === 'EPRIVATE' ? { [REFUSED_HEADER]: '1' } : {}) })
			.end(`revisit guard: ${error.code ?? error.message}\n`);
	});
	response.once('close', () => outgoing.destroy());
	request.pipe(outgoing);
}

/** One CONNECT tunnel (https://, ws://, wss://): its host and port checked, then bytes passed both ways. */
async function tunnel(guard: GuardProxy, request: http.IncomingMessage, client: Duplex, head: Buffer, refuse: (what: string) => void): Promise<void> {
	const policy = guard.policy;
	const authority = request.url ?? '';
	const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
	const origin = match ? `${match[2] === '80' ? 'http' : 'https'}://${authority}` : '';
	// Only the address is checked here: robots.txt needs the path, which the page's routes see (https is opaque to a proxy).
	if (!match || !(await permitted({ denyPrivate: policy.denyPrivate }, `${origin}/`))) {
		refuse(origin || authority);
		client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\ncontent-length: 0\r\n\r\n`);
		return;
	}
	const upstream = net.connect({
		host: match[1]!.replace(/^\[|\]$/g, ''),
		port: Number(match[2]),
		...(policy.denyPrivate ? { lookup: denyPrivateLookup() as unknown as net.LookupFunction } : {}),
	});
	upstream.once('connect', () => {
		client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length > 0) upstream.write(head);
		upstream.pipe(client);
		client.pipe(upstream);
	});
	upstream.once('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPRIVATE') refuse(origin);
		client.end(`HTTP/1.1 ${error.code === 'EPRIVATE' ? '403 Forbidden' : '502 Bad Gateway'}\r\ncontent-length: 0\r\n\r\n`);
	});
	client.once('close', () => upstream.destroy());
	upstream.once('close', () => client.destroy());
}
