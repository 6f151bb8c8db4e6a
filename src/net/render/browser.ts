import { accessSync, constants, statSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { RenderError } from './errors.js';
import { startGuardProxy, type GuardPolicy, type GuardProxy } from './guard-proxy.js';
import { watchMemory, type MemoryWatch } from './memory.js';

/** Flags for a quiet headless run (as root in a container too): nothing fetched in the background, no sandbox, no GPU. */
export const BROWSER_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * Flags every launch adds: all traffic through the guard proxy, loopback included (Chromium
 * sends it direct unless `<-loopback>` is named), and WebRTC kept to proxied connections,
 * so that a page cannot send UDP (STUN) past the proxy.
 */
const GUARD_ARGS = (proxy: string) => [
	`--proxy-server=${proxy}`,
	'--proxy-bypass-list=<-loopback>',
	'--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
	'--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Run in every frame before the page's own scripts: no window to open (a popup is closed
 * as soon as it shows anyway, see `context`), and no WebRTC, which can reach addresses a
 * proxy never sees.
 */
const INIT_SCRIPT = `(() => {
	const none = () => null;
	try { Object.defineProperty(window, 'open', { value: none, writable: false, configurable: false }); } catch {}
	for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']) {
		try { Object.defineProperty(window, name, { value: undefined, writable: false, configurable: false }); } catch {}
	}
})();`;

/** Contexts kept open at once; past this, the least recently used idle one is closed. */
const MAX_CONTEXTS = 16;

/** What a browser is launched with besides its flags. */
export interface LaunchGuard {
	/** The guard's policy until a run sets its own (`live.guard.policy`). */
	policy?: GuardPolicy | undefined;
	/** A renderer process past this many bytes of resident memory is killed (RENDER_TOO_LARGE). */
	memoryCapBytes?: number | undefined;
	/** A line for each client of the guard proxy that is not this browser (another uid, a wrong credential). */
	onStranger?: ((line: string) => void) | undefined;
	/** No guard: the browser sends directly and keeps window.open and WebRTC. Only for bench/render-guard.js, which measures what the guard costs. */
	unguarded?: boolean | undefined;
}

/** `--render-memory` by default: a renderer past 1 GiB is taken for a runaway page. */
export const RENDER_MEMORY_CAP = 1024 ** 3;

/**
 * Throws NO_BROWSER unless `browserPath` is an executable file.
 *
 * @example
 * checkBrowser('/usr/bin/chromium') // nothing, where Debian's chromium is installed
 */
export function checkBrowser(browserPath: string): void {
	try {
		accessSync(browserPath, constants.X_OK);
		if (!statSync(browserPath).isFile()) throw new Error(`${browserPath} is not a file`);
	} catch (error) {
		throw new RenderError(
			'NO_BROWSER',
			`no browser at ${browserPath}: rendering needs Chromium; give its path with --browser PATH or $REVISIT_BROWSER, ` +
				`or install Debian's (apt-get install chromium)`,
			{ cause: error },
		);
	}
}

/** One running browser: its contexts (one per origin), and whether it went away unasked. */
export interface LiveBrowser {
	readonly browser: Browser;
	/** The browser process's id (memory figures, and tests that kill it), when the browser told it. */
	readonly pid: number | undefined;
	/** True once the browser disconnected without close() (a crash, a kill) or was closed for hanging. */
	lost: boolean;
	/** The forward proxy all its requests go through. */
	readonly guard: GuardProxy;
	/** Its renderers' memory, watched while pages render. */
	readonly memory: MemoryWatch;
	/** Popups (window.open, target=_blank) closed as they opened. */
	readonly popups: { closed: number };
	/** The context for `origin`, made on first use; `release` when the page in it is closed. */
	context(origin: string): Promise<{ context: BrowserContext; release: () => void }>;
	/** Closes `origin`'s context and the pages in it: a page that does not close. Resolves false when the browser did not answer within `ms`. */
	closeContext(origin: string, ms: number): Promise<boolean>;
	/** Kills the process outright: for a browser that no longer answers. */
	kill(): void;
	close(): Promise<void>;
}

/**
 * Launches the browser at `browserPath`, loading playwright-core only now, so that a run
 * that renders nothing never loads it. Rejects with NO_BROWSER or RENDER_FAILED.
 *
 * @example
 * const live = await launchBrowser('/usr/bin/chromium', BROWSER_ARGS, () => console.warn('browser lost'));
 */
export async function launchBrowser(browserPath: string, args: readonly string[], onLost: () => void, launchGuard: LaunchGuard = {}): Promise<LiveBrowser> {
	checkBrowser(browserPath);
	const guard = await startGuardProxy(launchGuard.policy ?? { denyPrivate: false }, { onStranger: launchGuard.onStranger });
	let browser: Browser;
	try {
		const { chromium } = await import('playwright-core');
		browser = await chromium.launch({ executablePath: browserPath, args: [...args, ...(launchGuard.unguarded ? [] : GUARD_ARGS(guard.server))] });
	} catch (error) {
		await guard.close();
		throw new RenderError('RENDER_FAILED', `the browser at ${browserPath} did not start: ${errorFirstLine(error)}`, { cause: error });
	}
	const pid = await browserPid(browser);
	const memory = watchMemory(pid, launchGuard.memoryCapBytes ?? RENDER_MEMORY_CAP);
	const contexts = new Map<string, { context: Promise<BrowserContext>; pages: number }>();
	const popups = { closed: 0 };
	let closing = false;
	const newContext = async (): Promise<BrowserContext> => {
		// Service workers would answer requests past the page's routes: blocked.
		// The proxy again for the context, with its credential (Chromium answers the proxy's 407
		// with it): what the routes fetch from here (route.fetch) goes through the guard too.
		const proxy = { server: guard.server, username: guard.credential.username, password: guard.credential.password };
		const context = await browser.newContext({ serviceWorkers: 'block', ...(launchGuard.unguarded ? {} : { proxy }) });
		if (!launchGuard.unguarded) await context.addInitScript(INIT_SCRIPT);
		context.on('page', (page) => {
			// Only a popup has an opener: the pages revisit opens have none.
			void page
				.opener()
				.then((opener) => {
					if (!opener) return;
					popups.closed++;
					return page.close({ runBeforeUnload: false });
				})
				.catch(() => undefined);
		});
		return context;
	};
	const live: LiveBrowser = {
		browser,
		pid,
		lost: false,
		guard,
		memory,
		popups,
		async context(origin) {
			let entry = contexts.get(origin);
			if (entry) contexts.delete(origin);
			else entry = { context: newContext(), pages: 0 };
			contexts.set(origin, entry);
			entry.pages++;
			trim();
			const held = entry;
			let released = false;
			let context: BrowserContext;
			try {
				context = await held.context;
			} catch (error) {
				held.pages--;
				if (contexts.get(origin) === held) contexts.delete(origin);
				throw error;
			}
			return {
				context,
				release: () => {
					if (!released) held.pages--;
					released = true;
				},
			};
		},
		async closeContext(origin, ms) {
			const entry = contexts.get(origin);
			contexts.delete(origin);
			if (!entry) return true;
			const closed = entry.context
				.then((context) => context.close())
				.then(
					() => true,
					() => true,
				);
			return withinOr(closed, ms, false);
		},
		kill() {
			memory.stop();
			void guard.close();
			if (pid === undefined) return;
			// Playwright starts the browser as a process group's leader: the group takes its renderers with it.
			for (const target of [-pid, pid]) {
				try {
					return void process.kill(target, 'SIGKILL');
				} catch {
					// Not a group leader after all, or already gone.
				}
			}
		},
		async close() {
			closing = true;
			memory.stop();
			await browser.close().catch(() => undefined);
			await guard.close();
		},
	};
	/** Closes the least recently used contexts with no page open, down to MAX_CONTEXTS. */
	const trim = () => {
		for (const [origin, entry] of contexts) {
			if (contexts.size <= MAX_CONTEXTS) break;
			if (entry.pages > 0) continue;
			contexts.delete(origin);
			void entry.context.then((context) => context.close()).catch(() => undefined);
		}
	};
	browser.on('disconnected', () => {
		memory.stop();
		void guard.close();
		if (closing) return;
		live.lost = true;
		onLost();
	});
	return live;
}

/** The browser process's id, asked over CDP (Chromium's SystemInfo): playwright's Browser does not give it. */
async function browserPid(browser: Browser): Promise<number | undefined> {
	try {
		const session = await browser.newBrowserCDPSession();
		const info = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
		await session.detach();
		return info.processInfo.find((entry) => entry.type === 'browser')?.id;
	} catch {
		return undefined;
	}
}

/** What `promise` resolves to, or `otherwise` when it takes longer than `ms`. */
export async function withinOr<T>(promise: Promise<T>, ms: number, otherwise: T): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<T>((resolve) => {
		timer = setTimeout(resolve, ms, otherwise);
	});
	try {
		return await Promise.race([promise, late]);
	} finally {
		clearTimeout(timer);
	}
}

/** An error's first line, for a message that names it. */
export function errorFirstLine(error: unknown): string {
	return String(error instanceof Error ? error.message : error).split('\n')[0]!;
}
