import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { HttpsProxyAgent } from 'hpagent';
import { positiveInteger } from '../../base/util/checks.js';

export interface SocketPoolOptions {
	/**
	 * Sockets open at once, idle keep-alive ones included. A new connection past it first
	 * closes the least recently used idle socket, of any origin.
	 */
	maxSockets: number;
	/**
	 * Past this many open sockets, none of them idle, a new connection waits for one to
	 * close instead of opening (the descriptors beyond are kept for the store). Default: none.
	 */
	hardMaxSockets?: number | undefined;
	/** An idle keep-alive socket is closed after this long, in ms (sooner when the server's Keep-Alive asks). */
	idleMs: number;
}

/** Keep-alive agents for http and https that share one socket budget. */
export interface SocketPool {
	http: http.Agent;
	https: https.Agent;
	/** The agent for https:// requests through this proxy: a CONNECT tunnel per origin, kept alive. */
	tunnel(proxy: URL): https.Agent;
	/** Sockets open now, in use or idle, and requests waiting for one (past `hardMaxSockets`). */
	counts(): { open: number; idle: number; waiting: number };
	/** Sets `maxSockets` anew (never past `hardMaxSockets`): a watch follows the origins its schedule holds. Idle sockets past it close as new ones open. */
	resize(maxSockets: number): void;
	/** Closes every socket, in use or idle, and fails the requests waiting for one. */
	destroy(): void;
}

interface Waiter {
	request: http.ClientRequest;
	/** Hands the request to its agent, as if it had just come. */
	start(): void;
}

// Node's Agent method that takes each request: not in its typings, but the one agents override (agent-base does).
type AddRequest = (this: http.Agent, request: http.ClientRequest, options: object) => void;

/**
 * Keep-alive agents whose sockets stay within a budget shared by every origin, so the
 * descriptors a run holds follow its concurrency, not the number of hosts it has seen.
 *
 * Node's Agent can't do this alone (checked against Node 20's lib/_http_agent.js):
 * `maxFreeSockets` is per origin, so 2,000 hosts keep 2,000 idle sockets; and
 * `maxTotalSockets`, though it counts idle sockets, never closes another origin's idle
 * socket to make room. A request past it is queued until some socket closes, which for
 * an idle keep-alive socket is whenever its server or the agent `timeout` says, and a
 * socket freed meanwhile goes to its own origin's idle list, not to the queued request.
 * So here the per-agent limits stay off and the pool closes the least recently used idle
 * socket (of either agent) before opening one past `maxSockets`. Requests in flight are
 * bounded by the limiters; only past `hardMaxSockets`, with nothing idle left to close,
 * does a request wait here, for any socket to close or come free.
 *
 * @example
 * const pool = createSocketPool({ maxSockets: 28, idleMs: 4000 });
 * got.extend({ agent: { http: pool.http, https: pool.https } });
 */
export function createSocketPool(options: SocketPoolOptions): SocketPool {
	let maxSockets = positiveInteger('maxSockets', options.maxSockets);
	const hardMax = Math.max(maxSockets, options.hardMaxSockets ?? Number.POSITIVE_INFINITY);
	positiveInteger('idleMs', options.idleMs);
	const open = new Set<Duplex>();
	// Idle sockets, least recently freed first (a Map keeps insertion order), each with its agent's idle list.
	const idle = new Map<Duplex, Duplex[]>();
	const waiting: Waiter[] = [];

	const close = (socket: Duplex): void => {
		// Out of the agent's idle list now, not on 'close': its next request for that origin
		// takes the last socket of the list (LIFO) and must not find this one there, destroyed.
		const list = idle.get(socket);
		const at = list?.indexOf(socket) ?? -1;
		if (at !== -1) list!.splice(at, 1);
		// The descriptor is given back by destroy() itself, so the count drops now too.
		open.delete(socket);
		idle.delete(socket);
		socket.destroy();
	};
	const makeRoom = (): void => {
		for (const socket of idle.keys()) {
			if (open.size < maxSockets) return;
			close(socket);
		}
	};
	const mustWait = (): boolean => open.size >= hardMax && idle.size === 0;
	const wake = (): void => {
		while (waiting.length > 0 && !mustWait()) {
			waiting.shift()!.start();
		}
	};

	// biome-ignore lint/suspicious/noExplicitAny: a mixin's constructor takes any arguments (TypeScript's rule for mixins)
	const pooled = <T extends new (...args: any[]) => http.Agent>(Base: T) =>
		class extends Base {
			// biome-ignore lint/suspicious/noExplicitAny: as the mixin's type above
			constructor(...args: any[]) {
				super(...args);
				// After the Agent's own 'free' listener: by now the socket is in its idle list, or destroyed.
				this.on('free', (socket: Duplex, requestOptions: http.ClientRequestArgs) => {
					const list = this.freeSockets[this.getName(requestOptions)] as Duplex[] | undefined;
					if (!list?.includes(socket)) return;
					idle.delete(socket);
					idle.set(socket, list);
					if (waiting.length > 0) {
						// Someone waits for room: this socket gives it, whatever its origin.
						close(socket);
						wake();
					}
				});
			}

			override createConnection(connectOptions: http.ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void) {
				makeRoom();
				const track = (socket: Duplex): void => {
					open.add(socket);
					socket.once('close', () => {
						const known = open.delete(socket);
						idle.delete(socket);
						if (known) wake();
					});
				};
				// A proxy agent (hpagent) returns nothing and hands its socket, once tunnelled, to the callback.
				const socket = super.createConnection(
					connectOptions,
					callback &&
						((error: Error | null, stream: Duplex) => {
							if (stream && !open.has(stream)) track(stream);
							callback(error, stream);
						}),
				);
				if (socket) track(socket);
				return socket;
			}

			override reuseSocket(socket: Duplex, request: http.ClientRequest): void {
				idle.delete(socket);
				super.reuseSocket(socket, request);
			}

			addRequest(request: http.ClientRequest, requestOptions: object): void {
				const add = (Base.prototype as unknown as { addRequest: AddRequest }).addRequest;
				if (!mustWait()) return add.call(this, request, requestOptions);
				// A request destroyed while it waits (got's timeout, an abort) would hear nothing
				// until it got a socket: Node's ClientRequest reports its error from onSocket. So
				// it leaves the queue then, and is told at once, as Node tells one without a socket.
				const destroy = request.destroy;
				const waiter: Waiter = {
					request,
					start: () => {
						request.destroy = destroy;
						add.call(this, request, requestOptions);
					},
				};
				request.destroy = (error?: Error) => {
					request.destroy = destroy;
					destroy.call(request, error);
					const at = waiting.indexOf(waiter);
					if (at !== -1) {
						waiting.splice(at, 1);
						request.onSocket(null as never);
					}
					return request;
				};
				waiting.push(waiter);
			}
		};

	const agentOptions = { keepAlive: true, timeout: options.idleMs, scheduling: 'lifo' } as const;
	const agents = {
		http: new (pooled(http.Agent))(agentOptions),
		https: new (pooled(https.Agent))(agentOptions),
	};
	// One tunnelling agent per proxy (CONNECT, see net/http/proxy.ts), within the same budget.
	const tunnels = new Map<string, https.Agent>();
	const tunnel = (proxy: URL): https.Agent => {
		let agent = tunnels.get(proxy.href);
		if (!agent) tunnels.set(proxy.href, (agent = new (pooled(HttpsProxyAgent))({ ...agentOptions, proxy })));
		return agent;
	};
	return {
		...agents,
		tunnel,
		counts: () => ({ open: open.size, idle: idle.size, waiting: waiting.length }),
		resize(max) {
			maxSockets = Math.min(positiveInteger('maxSockets', max), hardMax);
		},
		destroy() {
			for (const { request } of [...waiting]) request.destroy(new Error('the HTTP client was closed'));
			agents.http.destroy();
			agents.https.destroy();
			for (const agent of tunnels.values()) agent.destroy();
		},
	};
}
