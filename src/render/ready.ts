import type { Page } from 'playwright-core';
import { within } from './browser.js';
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
export async function watchReadiness(page: Page, when: ReadyWhen, serialise: () => Promise<string>): Promise<(remaining: () => number, url: string, timeoutMs: number) => Promise<string>> {
	let inFlight = 0;
	let last = performance.now();
	const started = () => {
		inFlight++;
		last = performance.now();
	};
	const ended = () => {
		inFlight = Math.max(0, inFlight - 1);
		last = performance.now();
	};
	page.on('request', started);
	page.on('requestfinished', ended);
	page.on('requestfailed', ended);
	let crashed = false;
	page.on('crash', () => {
		crashed = true;
	});
	await page.addInitScript(COUNT_MUTATIONS);
	const selectors = [...(when.waitFor ?? [])];
	const idleCounts = when.reads !== undefined || selectors.length === 0;
	return async (remaining, url, timeoutMs) => {
		// The DOM (by its change count) last read at idle and found wanting, and why.
		let refused: number | undefined;
		let why = 'the network was not idle';
		for (;;) {
			const quiet = inFlight === 0 && performance.now() - last >= QUIET_MS;
			const seen = await look(page, selectors, idleCounts && quiet, () => crashed, remaining());
			if (seen?.ready) return serialise();
			if (seen && idleCounts && quiet) {
				if (!seen.loaded) why = 'the page had not loaded';
				else if (!seen.text) why = 'the page showed no text';
				else if (seen.mutations !== refused) {
					const html = await serialise();
					if (!when.reads || when.reads(html)) return html;
					refused = seen.mutations;
					why = 'what it showed once the network was idle held nothing the rule reads';
				}
			}
			if (remaining() <= LOOK_MS) {
				const waited = selectors.length > 0 ? `none of ${selectors.join(', ')} appeared${idleCounts ? `, and ${why}` : ''}` : why;
				throw new RenderError('RENDER_TIMEOUT', `${url}: not ready within ${timeoutMs} ms (${waited})`);
			}
			await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
		}
	};
}

interface Seen {
	/** One of the selectors has content. */
	ready: boolean;
	/** The document's load event has fired. */
	loaded: boolean;
	/** The body shows text (asked only when the network is idle: it costs a layout). */
	text: boolean;
	mutations: number;
}

/** The page as it is now; undefined while it navigates (its context is gone for a moment) or does not answer within `ms`. */
async function look(page: Page, selectors: string[], withText: boolean, crashed: () => boolean, ms: number): Promise<Seen | undefined> {
	try {
		// A renderer busy in a script answers nothing: the wait ends with the render's time.
		return await within(page.evaluate(inPage, { selectors, withText }), ms, undefined);
	} catch (error) {
		if (page.isClosed() || crashed()) throw error;
		return undefined;
	}
}

/**
 * In the page: whether one of `selectors` matches an element with content, and how the
 * page stands. An element merely present is not enough: shells carry the empty placeholder
 * (`<p class="price"></p>`) their script fills in. Text, or a `content` or `value`
 * attribute (meta, input), counts.
 */
function inPage({ selectors, withText }: { selectors: string[]; withText: boolean }): Seen {
	// Runs in the page, where the DOM is; src/ is compiled without its types.
	type Element = { textContent: string | null; getAttribute(name: string): string | null };
	const scope = globalThis as unknown as { document: { readyState: string; body: { innerText: string } | null; querySelectorAll(selector: string): ArrayLike<Element> } } & Record<symbol, number | undefined>;
	const document = scope.document;
	const ready = selectors.some((selector) => {
		try {
			return Array.from(document.querySelectorAll(selector)).some((element) => (element.textContent ?? '').trim() !== '' || Boolean(element.getAttribute('content') || element.getAttribute('value')));
		} catch {
			// A selector the browser does not know (revisit's own syntax, say) matches nothing here.
			return false;
		}
	});
	return { ready, loaded: document.readyState === 'complete', text: withText && (document.body?.innerText ?? '').trim() !== '', mutations: scope[Symbol.for('revisit.mutations')] ?? 0 };
}
