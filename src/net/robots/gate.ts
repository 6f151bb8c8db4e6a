import type { Got } from 'got';
import type { HostBook } from '../hosts/book.js';
import type { Limiter } from '../http/limiter.js';
import type { RobotsCopy } from '../../store/model/types.js';
import type { Reason } from '../../domain/task/types.js';
import type { Clock } from '../../domain/task/clock.js';
import { decide, pathOf, rulesFor, type AgentRules, type RobotsDecision } from './match.js';
import { fetchRobots, type Fetched } from './fetch.js';
import { parseRobots } from './parse.js';

export { freshness, ROBOTS_FRESH_MS } from './fetch.js';

/** When robots.txt cannot be fetched, the last good copy applies if it is this young. */
export const ROBOTS_STALE_MS = 30 * 86_400_000;

/** Where the run's copy of an origin's robots.txt came from. */
export type RobotsSource = 'fetched' | '304' | 'cached' | 'stale' | 'unreachable' | 'defaulted';

/** What applies to one origin for the whole run. */
export interface OriginRobots {
	source: RobotsSource;
	/** The agent's rules; undefined when everything is allowed (a 4xx, or no file). */
	rules?: AgentRules | undefined;
	/** Why the origin's URLs are deferred this run (unreachable robots.txt, Crawl-delay over the cap). */
	deferred?: string | undefined;
	/**
	 * Set when the deferral is a failure (robots.txt could not be had): each deferred URL's
	 * error, its code the network code or `HTTP_<status>`. A Crawl-delay over the cap is a
	 * choice, not a failure, and has none.
	 */
	failure?: { code: string; message: string } | undefined;
	/** The status robots.txt answered this run (absent for a network error or a cached copy). */
	status?: number | undefined;
	/** The copy applied, if any. */
	copy?: RobotsCopy | undefined;
	/** A network error or timeout, as its code. */
	error?: string | undefined;
}

export interface RobotsGateDeps {
	http: Got;
	limiter: Limiter;
	clock: Clock;
	/** Where each origin's copy is kept between runs (the host record's `robots`); hosts loaded by lookup. */
	book: HostBook;
}

export interface RobotsGateOptions {
	/** The crawler's name (`revisit`), or a whole User-Agent, up to its `/` (see `crawlerName`). */
	agent: string;
	/** Crawl-delay above this defers the origin's URLs (ms). */
	maxCrawlDelayMs: number;
	/** One attempt's time limit (ms). */
	timeoutMs: number;
}

/**
 * One URL's answer: `allow`, or the verdict reason. A deferral by Crawl-delay carries a
 * line for diagnostics the first time its origin is deferred; one because robots.txt
 * could not be had carries the URL's error instead, every time.
 */
export interface GateAnswer {
	verdict: 'allow' | Extract<Reason, 'robots' | 'deferred'>;
	decision?: RobotsDecision | undefined;
	notice?: string | undefined;
	error?: { code: string; message: string } | undefined;
}

export interface RobotsGate {
	/** The origin's robots.txt for this run: fetched once, shared by every URL of the origin. */
	origin(origin: string, signal?: AbortSignal): Promise<OriginRobots>;
	/** Whether `url` (of `origin`) may be requested. */
	check(url: string, origin: string, signal?: AbortSignal): Promise<GateAnswer>;
	/** The same answer at once, once the origin's robots.txt is in hand; undefined before. */
	checkNow(url: string, origin: string): GateAnswer | undefined;
}

/**
 * The run's robots.txt gate: one in-flight fetch per origin, the stored copy used while
 * fresh and revalidated with its validators after, the answer table of RFC 9309 §2.3.1
 * (2xx parsed; 4xx all allowed; 5xx, 429 and network errors: the last good copy up to 30
 * days old, else the origin deferred), and the agent's Crawl-delay set on the limiter.
 *
 * @example
 * const gate = createRobotsGate(deps, { agent: 'revisit', maxCrawlDelayMs: 30_000, timeoutMs: 15_000 });
 * (await gate.check('https://example.org/private/x', 'https://example.org')).verdict // 'robots'
 */
export function createRobotsGate(deps: RobotsGateDeps, options: RobotsGateOptions): RobotsGate {
	const origins = new Map<string, Promise<OriginRobots>>();
	// Each origin's copy once loaded: every later URL of the origin is answered without a promise.
	const loaded = new Map<string, OriginRobots>();
	const told = new Set<string>();
	const answer = (robots: OriginRobots, url: string, origin: string): GateAnswer => {
		if (robots.failure !== undefined) return { verdict: 'deferred', error: robots.failure };
		if (robots.deferred !== undefined) {
			const notice = told.has(origin) ? undefined : robots.deferred;
			told.add(origin);
			return { verdict: 'deferred', notice };
		}
		if (!robots.rules) return { verdict: 'allow' };
		const decision = decide(robots.rules, pathOf(url));
		return { verdict: decision.allowed ? 'allow' : 'robots', decision };
	};
	const gate: RobotsGate = {
		origin(origin, signal) {
			let pending = origins.get(origin);
			if (!pending) {
				pending = load(deps, options, origin, signal);
				origins.set(origin, pending);
				pending.then(
					(robots) => loaded.set(origin, robots),
					() => {},
				);
			}
			return pending;
		},
		async check(url, origin, signal) {
			return answer(await gate.origin(origin, signal), url, origin);
		},
		checkNow(url, origin) {
			const robots = loaded.get(origin);
			return robots && answer(robots, url, origin);
		},
	};
	return gate;
}

async function load(deps: RobotsGateDeps, options: RobotsGateOptions, origin: string, signal?: AbortSignal): Promise<OriginRobots> {
	const host = deps.book.get(origin);
	const stored = host.robots;
	const now = deps.clock.now();
	let result: OriginRobots;
	let startedAt: number | undefined;
	if (stored && now - stored.fetchedAt < stored.freshMs) {
		result = applied('cached', stored, options.agent);
	} else {
		const fetched = await fetchRobots(deps, options, origin, stored, signal);
		const at = deps.clock.now();
		// The gap counts from robots.txt's answer: its start is too early to count from, a
		// first request's connection set-up coming between it and the server.
		if (fetched.startedAt !== undefined) startedAt = at;
		if (fetched.status !== undefined && fetched.status >= 200 && fetched.status < 300) {
			const copy: RobotsCopy = { status: fetched.status, text: fetched.text ?? '', fetchedAt: at, freshMs: fetched.freshMs, ...validators(fetched) };
			remember(deps.book, origin, copy);
			result = { ...applied('fetched', copy, options.agent), status: fetched.status };
		} else if (fetched.status === 304 && stored) {
			const copy: RobotsCopy = { ...stored, fetchedAt: at, freshMs: fetched.freshMs, ...validators(fetched, stored) };
			remember(deps.book, origin, copy);
			result = { ...applied('304', copy, options.agent), status: 304 };
		} else if (fetched.status !== undefined && fetched.status >= 400 && fetched.status < 500 && fetched.status !== 429) {
			const copy: RobotsCopy = { status: fetched.status, text: '', fetchedAt: at, freshMs: fetched.freshMs };
			remember(deps.book, origin, copy);
			result = { source: 'defaulted', status: fetched.status, copy };
		} else {
			// 5xx, 429, a network error or a timeout (or a 304 to an unconditional request, or a 1xx/3xx left over).
			const what = fetched.status === undefined ? (fetched.error ?? 'no answer') : `HTTP ${fetched.status}`;
			const code = fetched.status === undefined ? (fetched.error ?? 'ERROR') : `HTTP_${fetched.status}`;
			if (stored && at - stored.fetchedAt <= ROBOTS_STALE_MS) {
				result = { ...applied('stale', stored, options.agent), status: fetched.status, error: fetched.error };
			} else {
				result = {
					source: 'unreachable',
					status: fetched.status,
					error: fetched.error,
					deferred: `${origin}: robots.txt answered ${what} and no copy 30 days old or younger is kept: its URLs are deferred to the next run`,
					failure: { code, message: `robots.txt answered ${what} and no copy 30 days old or younger is kept: not checked, deferred to the next run` },
				};
			}
		}
	}
	const delay = result.rules?.crawlDelay;
	if (delay !== undefined && result.deferred === undefined) {
		const ms = Math.round(delay * 1000);
		if (ms > options.maxCrawlDelayMs) {
			result = {
				...result,
				deferred: `${origin}: robots.txt asks for Crawl-delay ${delay}s, above --max-crawl-delay ${options.maxCrawlDelayMs / 1000}s: its URLs are deferred`,
			};
		} else if (ms > 0) {
			deps.limiter.gap(origin, ms, startedAt);
		}
	}
	return result;
}

/** A kept copy put to use: a 2xx's rules for the agent; a 4xx allows everything. */
function applied(source: RobotsSource, copy: RobotsCopy, agent: string): OriginRobots {
	const ok = copy.status >= 200 && copy.status < 300;
	return { source, copy, rules: ok ? rulesFor(parseRobots(copy.text), agent) : undefined };
}

function remember(book: HostBook, origin: string, copy: RobotsCopy): void {
	book.set(origin, { ...book.get(origin), robots: copy });
}

function validators(fetched: Fetched, stored?: RobotsCopy): Pick<RobotsCopy, 'etag' | 'lastModified'> {
	const etag = fetched.etag ?? stored?.etag;
	const lastModified = fetched.lastModified ?? stored?.lastModified;
	return { ...(etag === undefined ? {} : { etag }), ...(lastModified === undefined ? {} : { lastModified }) };
}
