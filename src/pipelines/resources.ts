import { namesUsed } from '../domain/condition/syntax.js';
import { UsageError } from '../base/errors/index.js';
import { createHostBook } from '../net/hosts/book.js';
import { createHttpClient, type HttpClientOptions } from '../net/http/client.js';
import { createLimiter } from '../net/http/limiter.js';
import type { TransportFactory } from '../net/http/transport.js';
import { checkedStore } from '../store/given.js';
import { openStore } from '../store/open.js';
import type { RedisTimeouts } from '../store/redis/link.js';
import { localWorkers } from '../net/transports/threads/threads.js';
import type { ValidatorStore } from '../store/model/types.js';
import { systemClock, type Clock } from '../domain/task/clock.js';
import type { SweepDeps } from './sweep.js';
import { DEFAULT_BROWSER, RENDER_DEFAULTS, rendersAny } from './render-options.js';
import { sweepDefaults } from './sweep-defaults.js';
import type { CheckOptions, SweepOptions } from './sweep-options.js';
import { checkBrowser, createRenderer } from '../net/render/index.js';

export interface ResourceOptions {
	/** A store directory or Redis URL (opened and closed here), or a store the caller owns. */
	store: string | ValidatorStore;
	clock?: Clock | undefined;
	random?: (() => number) | undefined;
	/** Connect and reconnect limits of a Redis store. */
	redis?: RedisTimeouts | undefined;
	/** Where attempts are sent from (worker threads, a Redis fleet); this process when absent. */
	transport?: TransportFactory | undefined;
	/**
	 * Keep-alive sockets kept open, idle ones included, in place of `--concurrency` +
	 * `--per-host`: a watch, whose requests move from origin to origin all the time, keeps
	 * a few per origin so that it does not close one origin's idle socket to open another's.
	 */
	maxSockets?: number | undefined;
	/** Where the run's resources say what the user should know (the render guard's refused strangers): stderr, in a CLI run. */
	diagnose?: ((line: string) => void) | undefined;
}

/**
 * Opens what a sweep needs: the store, a keep-alive HTTP client and the limiter.
 * `close()` releases what was opened here, never a store the caller passed in;
 * `resizeSockets` sets this process's keep-alive socket budget anew (`maxSockets`).
 * A watch's options have no worker threads (`localWorkers`): it sends from this process.
 *
 * @example
 * const { deps, close } = await openSweepDeps({ store: '.revisit' }, normaliseSweepOptions());
 */
export async function openSweepDeps(
	resources: ResourceOptions,
	options: CheckOptions & Partial<Pick<SweepOptions, 'localWorkers'>>,
): Promise<{ deps: SweepDeps; close(): Promise<void>; resizeSockets(maxSockets: number): void }> {
	const given = checkedStore(resources.store);
	const workers = options.localWorkers ?? 0;
	const cookies = options.cookies !== undefined || options.cookieJar !== undefined;
	if (cookies && (resources.transport !== undefined || workers > 0)) {
		// A jar is one process's state: threads and fleet workers could neither read nor update it.
		throw new UsageError('--cookies and --cookie-jar need the requests sent from this process: they cannot be used with --local-workers or --workers');
	}
	const renders = rendersAny(options);
	if (renders && (resources.transport !== undefined || workers > 0)) {
		// The body a probe read is rendered in this process: threads and fleet workers do not hand it back.
		throw new UsageError('--render needs the requests sent from this process: it cannot be used with --local-workers or --workers');
	}
	// normaliseSweepOptions gives a run that renders its browser ($REVISIT_BROWSER's, or this).
	const browser = options.render?.browser ?? DEFAULT_BROWSER;
	if (renders) checkBrowser(browser);
	// tough-cookie (with its public-suffix list, ~0.2 MB) loads only for a run that keeps cookies.
	const jars = cookies ? await import('../net/http/cookies.js') : undefined;
	const jar = jars && (options.cookies !== undefined ? await jars.readCookieFile(options.cookies) : jars.emptyJar());
	const ownsStore = typeof given === 'string';
	const store = typeof given === 'string' ? await openStore(given, resources.redis ? { redis: resources.redis } : {}) : given;
	const settings = resources.maxSockets === undefined ? clientSettings(options) : { ...clientSettings(options), maxSockets: resources.maxSockets };
	const client = createHttpClient(settings, { cookieJar: jar });
	let sender: Awaited<ReturnType<TransportFactory>> | undefined;
	try {
		const transport = resources.transport ?? (workers > 0 ? localWorkers(workers) : undefined);
		sender = await transport?.(settings);
	} catch (error) {
		client.close();
		if (ownsStore) await store.close();
		throw error;
	}
	const clock = resources.clock ?? clockFor(options.now);
	const limiter = createLimiter({ concurrency: options.concurrency, perHost: options.perHost, rate: options.rate }, clock);
	const renderer = renders
		? createRenderer({
				browserPath: browser,
				concurrency: options.render?.concurrency ?? RENDER_DEFAULTS.concurrency,
				memoryCapBytes: options.render?.memoryBytes ?? RENDER_DEFAULTS.memoryBytes,
				onStranger: resources.diagnose,
			})
		: undefined;
	return {
		resizeSockets: (maxSockets) => client.resize(maxSockets),
		deps: {
			store,
			http: client.got,
			limiter,
			clock,
			random: resources.random ?? Math.random,
			book: createHostBook(store, clock.now(), { auditRate: options.trust.auditRate }),
			transport: sender?.transport,
			renderer,
			...(renderer && jars && jar ? { cookies: () => jars.browserCookies(jar) } : {}),
		},
		async close() {
			await renderer?.close();
			await sender?.close();
			client.close();
			try {
				if (jars && jar && options.cookieJar !== undefined) await jars.writeCookieFile(options.cookieJar, jar);
			} finally {
				if (ownsStore) await store.close();
			}
		},
	};
}

/**
 * The HTTP client settings a run's options make: plain data, so that workers in other
 * threads or processes build the very client the coordinator would.
 *
 * @example
 * const executor = createExecutor(clientSettings(options));
 */
export function clientSettings(options: CheckOptions): HttpClientOptions {
	return {
		userAgent: options.userAgent,
		timeoutMs: options.timeoutMs,
		acceptEncoding: options.acceptEncoding,
		maxBodyBytes: options.maxBodyBytes,
		denyPrivate: options.denyPrivate,
		insecure: options.insecure,
		capture: options.capture,
		rules: options.rules,
		// A rule that learns noise needs the counted text kept, as the flag does.
		keepText: options.learnNoise || options.applyNoise === true || options.rules?.some((rule) => rule.learn) === true,
		// A condition on `text` reads it even with --keep-text off (then nothing is stored).
		keepCounted:
			options.keepTextBytes > 0 || options.when === undefined || !namesUsed(options.when).names.includes('text')
				? options.keepTextBytes
				: sweepDefaults.keepTextBytes,
		keepSource: options.diffOf === 'source',
		// The run's requests in flight, and room for one host's worth of idle keep-alive
		// sockets beyond: enough for a host's URLs that come together to share connections.
		maxSockets: options.concurrency + options.perHost,
		headers: options.headers,
		proxy: options.proxy,
	};
}

/**
 * The run's clock: the system's, or with \`now\` (\`--now\`, $REVISIT_NOW) one that starts
 * at \`now\` and runs on at the system's pace, so that durations within the run stay true.
 *
 * @example
 * clockFor(Date.parse('2030-01-01T00:00:00Z')).now() // 2030-01-01, and a few ms
 */
export function clockFor(now: number | undefined): Clock {
	if (now === undefined) return systemClock;
	const offset = now - Date.now();
	return { now: () => Date.now() + offset };
}
