import { UsageError } from '../../base/errors/index.js';
import { BROWSER_ARGS, launchBrowser, type LiveBrowser } from './browser.js';
import { RenderError } from './errors.js';
import { renderPage } from './page.js';
import { Slots } from './slots.js';
import type { Rendered, Renderer, RenderOptions } from './types.js';

/** How long past its timeout a render may run before its page is taken for hung. */
const HANG_MARGIN_MS = 5000;
/** How long closing a hung page's context may take before the browser is taken for hung. */
const CLOSE_MS = 5000;
/** Tries of a page whose browser went away under it: once more, on a new browser. */
const TRIES = 2;

/** What createRenderer takes. */
export interface RendererOptions {
	/** The browser's executable (`--browser`, `$REVISIT_BROWSER`): Debian's is /usr/bin/chromium. */
	browserPath: string;
	/** Pages rendered at once (`--render-concurrency`, 2 by default); the others wait their turn. */
	concurrency: number;
	/** The browser's command-line flags; BROWSER_ARGS by default. */
	launchArgs?: string[];
	/** `--render-memory`: a renderer process past this many bytes is killed, its page RENDER_TOO_LARGE. */
	memoryCapBytes?: number | undefined;
	/** No guard proxy, popups and WebRTC left alone: only for bench/render-guard.js, which measures the guard's cost. */
	unguarded?: boolean | undefined;
	/** A diagnostic line for each client of the guard proxy that is not revisit's browser (another uid, a wrong credential). */
	onStranger?: ((line: string) => void) | undefined;
}

/** A Renderer that also names its browser process, for the pool's memory figures (bench/) and for tests that kill it. */
export interface BrowserPool extends Renderer {
	/** The running browser's process id; undefined before the first render and after a crash or close(). */
	browserPid(): number | undefined;
	/** Pages open in the running browser, popups included: 0 between renders. */
	openPages(): number;
}

/**
 * A pool of browser pages (see Renderer). Nothing is loaded or launched until the first
 * render; a browser that crashed or hung is closed and launched again for the next page.
 *
 * @example
 * const renderer = createRenderer({ browserPath: '/usr/bin/chromium', concurrency: 2 });
 * try {
 *   const { html, data } = await renderer.render(url, body, 'text/html', { timeoutMs: 15_000, waitFor: ['.price'] });
 * } finally { await renderer.close(); }
 */
export function createRenderer(options: RendererOptions): BrowserPool {
	if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
		throw new UsageError(`--render-concurrency must be a whole number of 1 or more, not ${options.concurrency}`);
	const slots = new Slots(options.concurrency);
	const args = options.launchArgs ?? BROWSER_ARGS;
	let current: Promise<LiveBrowser> | undefined;
	let running: LiveBrowser | undefined;
	/** A browser was lost since the last launch: the next launch is a restart. */
	let lost = false;
	let renders = 0;
	let restarts = 0;
	let closed = false;
	/** Counts of the browsers gone before this one. */
	const past = { popups: 0, memoryKills: 0, peak: 0 };
	const tally = (live: LiveBrowser) => {
		past.popups += live.popups.closed;
		past.memoryKills += live.memory.kills;
		past.peak = Math.max(past.peak, live.memory.peak);
	};

	const drop = (launching: Promise<LiveBrowser>) => {
		if (current !== launching) return;
		if (running) tally(running);
		current = undefined;
		running = undefined;
	};
	const browser = (): Promise<LiveBrowser> => {
		if (current) return current;
		if (lost) restarts++;
		lost = false;
		const launching: Promise<LiveBrowser> = launchBrowser(
			options.browserPath,
			args,
			() => {
				lost = true;
				drop(launching);
			},
			{ memoryCapBytes: options.memoryCapBytes, unguarded: options.unguarded, onStranger: options.onStranger },
		);
		current = launching;
		launching.then(
			(live) => {
				if (current === launching) running = live;
			},
			() => drop(launching),
		);
		return launching;
	};

	/**
	 * Settles as `render` does; or, when the page is still not done well past its timeout,
	 * closes the page's context (a runaway or hung page, never the other pages' browser) and
	 * rejects with RENDER_TIMEOUT; only a browser that does not close the context either is
	 * taken for hung, killed, and started again. Rejects at once when `signal` aborts.
	 */
	const watched = (
		render: Promise<Rendered>,
		live: LiveBrowser,
		launching: Promise<LiveBrowser>,
		url: string,
		timeoutMs: number,
		signal?: AbortSignal,
	): Promise<Rendered> => {
		let timer: NodeJS.Timeout | undefined;
		let onAbort = () => {};
		const aborted = new Promise<never>((_, reject) => {
			onAbort = () => reject(signal!.reason);
			signal?.addEventListener('abort', onAbort, { once: true });
		});
		const hung = new Promise<never>((_, reject) => {
			timer = setTimeout(() => {
				void live.closeContext(new URL(url).origin, CLOSE_MS).then((answered) => {
					if (answered) return reject(new RenderError('RENDER_TIMEOUT', `${url}: the page did not end within ${timeoutMs + HANG_MARGIN_MS} ms; it was closed`));
					live.lost = true;
					lost = true;
					drop(launching);
					live.kill();
					void live.close();
					reject(
						new RenderError('RENDER_TIMEOUT', `${url}: the browser did not answer within ${timeoutMs + HANG_MARGIN_MS + CLOSE_MS} ms; it is started again`),
					);
				});
			}, timeoutMs + HANG_MARGIN_MS);
		});
		render.catch(() => undefined);
		hung.catch(() => undefined);
		aborted.catch(() => undefined);
		return Promise.race([render, hung, aborted]).finally(() => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onAbort);
		});
	};

	return {
		async render(url: string, body: Buffer, contentType: string | undefined, renderOptions: RenderOptions, signal?: AbortSignal): Promise<Rendered> {
			if (closed) throw new RenderError('RENDER_FAILED', `${url}: the renderer is closed`);
			const release = await slots.take(signal);
			try {
				// Closed while this one waited: launching now would leave a browser nobody closes.
				if (closed) throw new RenderError('RENDER_FAILED', `${url}: the renderer is closed`);
				for (let attempt = 1; ; attempt++) {
					let live: LiveBrowser | undefined;
					try {
						const launching = browser();
						live = await launching;
						const rendered = await watched(
							renderPage(live, url, body, contentType, renderOptions, signal),
							live,
							launching,
							url,
							renderOptions.timeoutMs,
							signal,
						);
						renders++;
						return rendered;
					} catch (error) {
						// The browser went away under this page (another page hung it, or it crashed): once more, on a new one.
						const browserLost = error instanceof RenderError && error.code === 'BROWSER_CRASHED' && live?.lost === true;
						if (!browserLost || attempt >= TRIES || closed || signal?.aborted) throw error;
					}
				}
			} finally {
				release();
			}
		},
		stats: () => ({
			renders,
			restarts,
			popups: past.popups + (running?.popups.closed ?? 0),
			memoryKills: past.memoryKills + (running?.memory.kills ?? 0),
			peakRendererBytes: Math.max(past.peak, running?.memory.peak ?? 0),
		}),
		browserPid: () => running?.pid,
		openPages: () => running?.browser.contexts().reduce((sum, context) => sum + context.pages().length, 0) ?? 0,
		async close() {
			closed = true;
			const launching = current;
			current = undefined;
			running = undefined;
			const live = await launching?.catch(() => undefined);
			await live?.close();
		},
	};
}
