import type { Page } from 'playwright-core';
import { withinOr } from './browser.js';
import { RenderError } from './errors.js';

/** How long no request may be in flight for the network to count as idle: Playwright's `networkidle`. */
export const QUIET_MS = 500;
/** How often the page is looked at while it is not ready. */
const LOOK_MS = 100;

/** What the page is ready at, besides the network going idle. */
export interface ReadyWhen {
	/** Ready once one of these selectors has something in it (text, a `content` or `value`). */
	waitFor?: readonly string[] | undefined;
	/**
	 * Whether the page, serialised once the network is idle and it shows text, holds what is
	 * read (a product rule: an offer). Without it, idle with text is ready only when there
	 * are no selectors to wait for.
	 */
	reads?: ((html: string) => boolean) | undefined;
}

/**
 * Counts the page's DOM changes from before its first script runs, so that a DOM read at
 * idle and found wanting is read again only once it has changed.
 */
const COUNT_MUTATIONS = `(() => {
	let count = 0;
	try {
		new MutationObserver(() => { count++; }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
		Object.defineProperty(window, Symbol.for('revisit.mutations'), { get: () => count });
	} catch {}
})();`;

/**
 * Watches `page`'s requests (call before it navigates) and counts its DOM changes; the
 * returned function waits until the page is ready: one of `when.waitFor` has content, or
 * else the network has been idle for QUIET_MS with the document loaded and text in its
 * body, and `when.reads` finds what is read in the DOM then (whichever comes first). It
 * resolves to the page's markup, `serialise`d, and rejects with RENDER_TIMEOUT once
 * `remaining()` runs out.
 *
 * @example
 * const ready = await watchReadiness(page, { waitFor: ['.price'] }, serialise);
 * await page.goto(url, { waitUntil: 'domcontentloaded' });
 * const html = await ready(remaining, url, 15_000);
 */
export async function watchReadiness(
	page: Page,
	when: ReadyWhen,
	serialise: () => Promise<string>,
): Promise<(remaining: () => number, url: string, timeoutMs: number) => Promise<string>> {
	const selectors = [...(when.waitFor ?? [])];
	const idleCounts = when.reads !== undefined || selectors.length === 0;
	const network = { inFlight: 0, last: performance.now() };
	let crashed = false;
	if (idleCounts) {
		const moved = (by: number) => () => {
			network.inFlight = Math.max(0, network.inFlight + by);
			network.last = performance.now();
		};
		page.on('request', moved(1));
		page.on('requestfinished', moved(-1));
		page.on('requestfailed', moved(-1));
		page.on('crash', () => {
			crashed = true;
		});
		await page.addInitScript(COUNT_MUTATIONS);
	}
	return async (remaining, url, timeoutMs) => {
		const state = { done: false, why: 'the network was not idle' };
		const timedOut = (cause?: unknown) => {
			const waited = selectors.length > 0 ? `none of ${selectors.join(', ')} appeared${idleCounts ? `, and ${state.why}` : ''}` : state.why;
			return new RenderError('RENDER_TIMEOUT', `${url}: not ready within ${timeoutMs} ms (${waited})`, { cause });
		};
		// The selectors are watched in the page itself, as before: no round trip per look.
		const bySelectors =
			selectors.length === 0
				? []
				: [
						page
							.waitForFunction(filled, selectors, { timeout: remaining(), polling: LOOK_MS })
							.then(serialise, (error: unknown) => Promise.reject(error instanceof Error && error.name === 'TimeoutError' ? timedOut(error) : error)),
					];
		const byIdle = idleCounts
			? [atIdle(page, network, when, serialise, remaining, state, () => crashed).then((html) => html ?? Promise.reject(timedOut()))]
			: [];
		const racing = [...bySelectors, ...byIdle];
		try {
			return await Promise.race(racing);
		} finally {
			state.done = true;
			// The loser ends with the page (closed by the caller); what it then says is of no use.
			for (const one of racing) one.catch(() => undefined);
		}
	};
}

/**
 * Waits until the network is idle, the document loaded and its body shows text, and
 * `when.reads` (if any) finds what is read in the page's markup then; resolves to that
 * markup, or to undefined once `remaining()` runs out or `state.done` (`state.why` says
 * what it last found wanting). Looks at the page only while the network is quiet.
 */
async function atIdle(
	page: Page,
	network: { inFlight: number; last: number },
	when: ReadyWhen,
	serialise: () => Promise<string>,
	remaining: () => number,
	state: { done: boolean; why: string },
	crashed: () => boolean,
): Promise<string | undefined> {
	// The DOM (by its change count) last read at idle and found wanting.
	let refused: number | undefined;
	while (!state.done && remaining() > LOOK_MS) {
		if (network.inFlight === 0 && performance.now() - network.last >= QUIET_MS) {
			const seen = await look(page, crashed, remaining());
			if (state.done) return undefined;
			if (seen && !seen.loaded) state.why = 'the page had not loaded';
			else if (seen && !seen.text) state.why = 'the page showed no text';
			else if (seen && seen.mutations !== refused) {
				const html = await serialise();
				if (!when.reads || when.reads(html)) return html;
				refused = seen.mutations;
				state.why = 'what it showed once the network was idle held nothing the rule reads';
			}
		}
		await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
	}
	return undefined;
}

interface Seen {
	/** The document's load event has fired. */
	loaded: boolean;
	/** The body shows text. */
	text: boolean;
	mutations: number;
}

/** The page as it is now; undefined while it navigates (its context is gone for a moment) or does not answer within `ms`. */
async function look(page: Page, crashed: () => boolean, ms: number): Promise<Seen | undefined> {
	try {
		// A renderer busy in a script answers nothing: the wait ends with the render's time.
		return await withinOr(page.evaluate(inPage), ms, undefined);
	} catch (error) {
		if (page.isClosed() || crashed()) throw error;
		return undefined;
	}
}

/** In the page: whether it has loaded, whether its body shows text, and its DOM changes so far. */
function inPage(): Seen {
	// Runs in the page, where the DOM is; src/ is compiled without its types.
	const scope = globalThis as unknown as { document: { readyState: string; body: { innerText: string } | null } } & Record<symbol, number | undefined>;
	const document = scope.document;
	return {
		loaded: document.readyState === 'complete',
		text: (document.body?.innerText ?? '').trim() !== '',
		mutations: scope[Symbol.for('revisit.mutations')] ?? 0,
	};
}

/**
 * In the page: whether one of `selectors` matches an element with content. An element
 * merely present is not enough: shells carry the empty placeholder (`<p class="price"></p>`)
 * their script fills in. Text, or a `content` or `value` attribute (meta, input), counts.
 */
function filled(selectors: string[]): boolean {
	// Runs in the page, where the DOM is; src/ is compiled without its types.
	const document = (
		globalThis as unknown as {
			document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; getAttribute(name: string): string | null }> };
		}
	).document;
	return selectors.some((selector) =>
		Array.from(document.querySelectorAll(selector)).some(
			(element) => (element.textContent ?? '').trim() !== '' || Boolean(element.getAttribute('content') || element.getAttribute('value')),
		),
	);
}
