import { accessSync, constants, statSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { RenderError } from './errors.js';

/** Flags for a quiet headless run (as root in a container too): nothing fetched in the background, no sandbox, no GPU. */
export const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Contexts kept open at once; past this, the least recently used idle one is closed. */
const MAX_CONTEXTS = 16;

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
			`no browser at ${browserPath}: rendering needs Chromium; give its path with --browser PATH or $REVISIT_BROWSER, or install Debian's (apt-get install chromium)`,
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
	/** The context for `origin`, made on first use; `release` when the page in it is closed. */
	context(origin: string): Promise<{ context: BrowserContext; release: () => void }>;
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
export async function launchBrowser(browserPath: string, args: readonly string[], onLost: () => void): Promise<LiveBrowser> {
	checkBrowser(browserPath);
	let browser: Browser;
	try {
		const { chromium } = await import('playwright-core');
		browser = await chromium.launch({ executablePath: browserPath, args: [...args] });
	} catch (error) {
		throw new RenderError('RENDER_FAILED', `the browser at ${browserPath} did not start: ${firstLine(error)}`, { cause: error });
	}
	const pid = await browserPid(browser);
	const contexts = new Map<string, { context: Promise<BrowserContext>; pages: number }>();
	let closing = false;
	const live: LiveBrowser = {
		browser,
		pid,
		lost: false,
		async context(origin) {
			let entry = contexts.get(origin);
			if (entry) contexts.delete(origin);
			// Service workers would answer requests past the page's routes: blocked.
			else entry = { context: browser.newContext({ serviceWorkers: 'block' }), pages: 0 };
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
		kill() {
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
			await browser.close().catch(() => undefined);
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

/** An error's first line, for a message that names it. */
export function firstLine(error: unknown): string {
	return String(error instanceof Error ? error.message : error).split('\n')[0]!;
}
